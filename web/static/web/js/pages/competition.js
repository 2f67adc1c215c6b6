// Entry module of /competitions/<id>/ (web/templates/web/competition.html).
import { start } from "../competitions/page.js";

start();
