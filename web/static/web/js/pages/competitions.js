// Entry module of /competitions/ (web/templates/web/competitions.html).
import { start } from "../competitions/list.js";

start();
