// Entry module of /competitions/<id>/boards/ (web/templates/web/competition_boards.html).
import { start } from "../competitions/boards.js";

start();
