// Entry module of /leagues/<id>/ (web/templates/web/league.html).
import { start } from "../leagues/page.js";

start();
