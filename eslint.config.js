// ESLint (flat config). The type-aware rules are the ones that catch real bugs in a CLI that is
// mostly promises and optional data: a promise nobody awaits (an error lost, a process that exits
// before its write), a promise where a callback's result is ignored, and a condition that can
// never change (dead code, or a type that lies about what the API sends).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Files that import nothing from the layers above them (or from the entry files and the emulator). */
function layer(files, above) {
  const names = [...above, "emulator", "cli", "app", "factory", "start"].join("|");
  return [
    {
      files,
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              {
                regex: `^(\\./|(\\.\\./)+)(${names})(\\.js)?(/|$)`,
                message: "an import runs back up: base ← api, settings, policy, io ← output ← migrate ← commands",
              },
            ],
          },
        ],
      },
    },
  ];
}

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "test/fixtures/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unnecessary-condition": "error",
      "@typescript-eslint/await-thenable": "error",
      // Finding control characters is this tool's job (escaping what the API sends before a
      // terminal sees it, refusing them in ids, keys and paths): every such regex is on purpose.
      "no-control-regex": "off",
      // `_` names a value left out on purpose (a rest sibling, an unused parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The emulator stands apart from the CLI: it shares only data about the API (src/api-data/)
    // and the Traffic Policy validator, never the CLI's layers (test/emulator/stands-apart.test.ts
    // also follows imports from file to file).
    files: ["src/emulator/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(errors|commands|output|settings|io|cli|app|factory|start)(\\.js)?(/|$)",
              message: "the emulator imports nothing from the CLI's layers; share data through src/api-data/",
            },
          ],
        },
      ],
    },
  },
  // No import runs back up (test/layers.test.ts follows every file): base (errors, version,
  // text, secrets, api-data, files, webhooks) ← api, settings, policy, io ← output ← migrate ← commands.
  ...layer(
    ["src/errors.ts", "src/version.ts", "src/{text,secrets,api-data,files,webhooks}/**/*.ts"],
    ["api", "settings", "policy", "io", "output", "migrate", "commands"],
  ),
  ...layer(["src/{api,settings,policy,io}/**/*.ts"], ["output", "migrate", "commands"]),
  ...layer(["src/output/**/*.ts"], ["migrate", "commands"]),
  ...layer(["src/migrate/**/*.ts"], ["commands"]),
  {
    // Plain JavaScript (bin/, scripts/, bench/) is not in the TypeScript project.
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
