// Entry module of /competitions/<id>/organise/ (web/templates/web/competition_organise.html).
import { start } from "../competitions/organise.js";

start();
