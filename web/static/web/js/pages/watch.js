// Entry module of /tables/<id>/watch/ (web/templates/web/watch.html).
import { start } from "../watch.js";

start();
