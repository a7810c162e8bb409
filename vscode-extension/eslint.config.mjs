// ESLint for the extension: ESLint's and typescript-eslint's recommended rules, type-aware for
// the files tsconfig.json covers (so a floating promise, or an object stringified as
// "[object Object]", is caught). Formatting is Prettier's (prettier.config.mjs), not ESLint's.
// `npm run lint` (scripts/build-and-test.sh runs it); `npm run lint:fix` fixes what it can.
import eslint from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    "node_modules/",
    "out/",
    "dist/",
    "bundled/",
    "**/*.vsix",
    "test-harness/node_modules/",
    "src/**/*.generated.ts",
  ]),
  eslint.configs.recommended,
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommended],
  },
  {
    // The extension and its unit tests: the files tsconfig.json covers.
    files: ["src/**/*.ts", "test/**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          // node:test's test() and describe() return promises that the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["test", "describe", "it", "suite"] },
          ],
        },
      ],
    },
  },
  {
    // Build scripts and the test harness's runner: Node, ES modules.
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    // The integration suites and the harness's host side: CommonJS in VS Code's extension host.
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
);
