// Entry module of /ratings/ (web/templates/web/ratings.html).
import { start } from "../ratings/page.js";

start();
