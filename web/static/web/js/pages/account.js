// Entry module of /account/ (web/templates/web/account.html).
import { start } from "../account.js";

start();
