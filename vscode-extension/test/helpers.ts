/** Paths shared by the unit tests (they run from out/test/, compiled). */
import * as path from "node:path";

/** vscode-extension/ */
export const ROOT = path.resolve(__dirname, "..", "..");
/** The repository root. */
export const REPO = path.resolve(ROOT, "..");
