import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

/**
 * The client's message catalogues (decision 038, docs/i18n.md): English is the source language and holds
 * the spec's texts verbatim; German is the second language. `npx lingui extract` writes the .po files;
 * @lingui/vite-plugin compiles them at build time, so no message parser ships to the browser.
 */
export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "de"],
  catalogs: [
    {
      path: "<rootDir>/src/client/locales/{locale}/messages",
      include: ["<rootDir>/src/client"],
      exclude: ["**/*.test.ts", "**/*.test.tsx", "**/test/**"],
    },
  ],
  // Origins without line numbers: a message moving within its file does not rewrite the catalogues.
  format: formatter({ lineNumbers: false }),
});
