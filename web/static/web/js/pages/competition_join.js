// Entry module of /competitions/<id>/join/ (web/templates/web/competition_join.html).
import { start } from "../competitions/join.js";

start();
