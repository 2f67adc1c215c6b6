// Entry module of /tables/<id>/replay/ (web/templates/web/replay.html).
import { start } from "../replay/page.js";

start();
