// Entry module of /calculator/ (web/templates/web/calculator.html).
import { start } from "../calculator.js";

start();
