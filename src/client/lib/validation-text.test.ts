import { afterEach, describe, expect, it } from "vitest";
import { activateLocale } from "./i18n.ts";
import { validationText } from "./validation-text.ts";

afterEach(async () => {
  await activateLocale("en");
});

describe("validationText", () => {
  it("keeps the shared schemas' English messages word for word in English", () => {
    expect(validationText("Title is required")).toBe("Title is required");
    expect(validationText("Office number must be at most 20 characters")).toBe(
      "Office number must be at most 20 characters",
    );
  });

  it("says them in German, field names included, with the numbers kept", async () => {
    await activateLocale("de");
    expect(validationText("Title is required")).toBe("Titel ist erforderlich");
    expect(validationText("Office number must be at most 20 characters")).toBe(
      "Büronummer darf höchstens 20 Zeichen lang sein",
    );
  });

  it("keeps a custom field's own name, which is data", async () => {
    await activateLocale("de");
    expect(validationText("Asset tag is required")).toBe("Asset tag ist erforderlich");
    expect(validationText("Laptop model: 'X1' is not one of the choices")).toBe(
      "Laptop model: „X1“ ist keine der Auswahlmöglichkeiten",
    );
  });

  it("leaves a message of an unknown shape as it is", async () => {
    await activateLocale("de");
    expect(validationText("Something else went wrong")).toBe("Something else went wrong");
    expect(validationText(undefined)).toBeUndefined();
  });
});
