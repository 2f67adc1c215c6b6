// Entry module of /leagues/ (web/templates/web/leagues.html).
import { start } from "../leagues/list.js";

start();
