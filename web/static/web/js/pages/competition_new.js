// Entry module of /competitions/new/ (web/templates/web/competition_new.html).
import { start } from "../competitions/new.js";

start();
