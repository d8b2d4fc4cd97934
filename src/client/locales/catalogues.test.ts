import { getCatalogs } from "@lingui/cli/api";
import { getConfig } from "@lingui/conf";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Decision 038: every text of the interface is in both catalogues. Extracts the messages from the source
 * as `lingui extract` would, and compares them with the committed .po files: a text added, changed or
 * removed without `npx lingui extract`, or a German translation left empty, fails here.
 */
const root = decodeURIComponent(new URL("../../..", import.meta.url).pathname).replace(/\/$/, "");
type Entries = Record<string, { message?: string; translation?: string; obsolete?: boolean }>;

let inSource: Entries;
let catalogues: Record<"en" | "de", Entries>;

beforeAll(async () => {
  const config = getConfig({ cwd: root, configPath: `${root}/lingui.config.ts` });
  const [catalog] = await getCatalogs(config);
  if (!catalog) throw new Error("lingui.config.ts names no catalogue");
  inSource = (await catalog.collect()) ?? {};
  catalogues = { en: await catalog.read("en"), de: await catalog.read("de") };
}, 120_000);

const textsOf = (entries: Entries) =>
  Object.entries(entries)
    .filter(([, entry]) => !entry.obsolete)
    .map(([id, entry]) => entry.message ?? id)
    .sort();

describe("message catalogues", () => {
  it("finds the interface's texts in the source", () => {
    expect(textsOf(inSource)).toContain("Sign In");
  });

  it.each(["en", "de"] as const)("the %s catalogue holds exactly the texts of the source", (locale) => {
    expect(textsOf(catalogues[locale]), "run `npx lingui extract`").toEqual(textsOf(inSource));
  });

  it("every English text is itself (the spec's wording, verbatim)", () => {
    const changed = Object.entries(catalogues.en).filter(
      ([id, entry]) => (entry.translation ?? "") !== (entry.message ?? id),
    );
    expect(changed).toEqual([]);
  });

  it("every German text is translated", () => {
    const untranslated = Object.entries(catalogues.de)
      .filter(([, entry]) => !entry.obsolete && !entry.translation?.trim())
      .map(([id, entry]) => entry.message ?? id);
    expect(untranslated).toEqual([]);
  });
});
