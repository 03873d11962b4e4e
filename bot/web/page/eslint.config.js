// The page's linter: typescript-eslint's strictest type-checked rules (and its stylistic
// ones) over src/, with the types tsc checks (tsconfig.json).
// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/"] },
  {
    files: ["src/**/*.ts"],
    extends: [js.configs.recommended, tseslint.configs.strictTypeChecked, tseslint.configs.stylisticTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A number in a template is its decimal digits, which is what the page means by it
      // (a grid's column, a card's place); anything else (undefined, an object) is refused.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
    },
  },
  {
    // Written by json-schema-to-typescript from the schema (npm run types), as it writes it.
    files: ["src/page.gen.ts"],
    rules: { "@typescript-eslint/consistent-indexed-object-style": "off" },
  },
);
