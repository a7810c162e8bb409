// Prettier for the extension's code: its defaults (double quotes, semicolons, trailing commas),
// with the line width the code was written to. `npm run format` writes, `npm run format:check`
// (run by scripts/build-and-test.sh) fails on drift. What it skips: .prettierignore.

/** @type {import("prettier").Config} */
export default {
  printWidth: 120,
  overrides: [
    {
      // The JavaScript that runs inside VS Code's extension host (the integration suites and the
      // test harness, a package of its own) is written with single quotes, as the harness began.
      files: ["test-harness/**", "test/integration/**", "test/bundled/**"],
      options: { singleQuote: true },
    },
  ],
};
