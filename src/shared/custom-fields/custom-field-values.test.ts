import { describe, expect, it } from "vitest";
import { type CustomField, customFieldInputSchema } from "./custom-field.schemas.ts";
import { formatCustomFieldValue, pickValuesFor, valuesSchemaFor } from "./custom-field-values.ts";

const field = (
  overrides: Partial<CustomField> & Pick<CustomField, "id" | "label" | "type">,
): CustomField => ({
  category: null,
  required: false,
  helpText: "",
  options: [],
  position: 0,
  retired: false,
  ...overrides,
});

const choices = [
  { value: "laptop", label: "Laptop" },
  { value: "desktop", label: "Desktop" },
];
const definitions: CustomField[] = [
  field({ id: "cf_text0000", label: "Asset tag", type: "text", required: true, category: "Hardware" }),
  field({ id: "cf_numb0000", label: "Screens", type: "number", position: 1 }),
  field({ id: "cf_sing0000", label: "Device", type: "single_choice", options: choices, position: 2 }),
  field({ id: "cf_mult0000", label: "Kinds", type: "multiple_choice", options: choices, position: 3 }),
  field({ id: "cf_chek0000", label: "VIP", type: "checkbox", position: 4 }),
  field({ id: "cf_date0000", label: "Bought on", type: "date", position: 5 }),
  field({ id: "cf_soft0000", label: "Licence", type: "text", category: "Software", required: true }),
  field({ id: "cf_reti0000", label: "Old", type: "text", retired: true }),
];

const messagesOf = (input: unknown, category: "Hardware" | "Software" = "Hardware") => {
  const result = valuesSchemaFor(definitions, category).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("valuesSchemaFor", () => {
  it("accepts each type and returns the values to store (empty optional ones left out)", () => {
    const parsed = valuesSchemaFor(definitions, "Hardware").parse({
      cf_text0000: "  A-1 ",
      cf_numb0000: "2",
      cf_sing0000: "laptop",
      cf_mult0000: ["desktop", "laptop", "laptop"],
      cf_chek0000: false,
      cf_date0000: "",
    });
    expect(parsed).toEqual({
      cf_text0000: "A-1",
      cf_numb0000: 2,
      cf_sing0000: "laptop",
      cf_mult0000: ["laptop", "desktop"],
      cf_chek0000: false,
    });
  });

  it("asks only the category's fields: a required Software field does not bind Hardware", () => {
    expect(messagesOf({ cf_text0000: "A-1" })).toEqual([]);
    expect(messagesOf({}, "Software")).toEqual(["Licence is required"]);
  });

  it("names the field in every refusal", () => {
    expect(messagesOf({})).toEqual(["Asset tag is required"]);
    expect(messagesOf({ cf_text0000: "   " })).toEqual(["Asset tag is required"]);
    expect(messagesOf({ cf_text0000: "A", cf_numb0000: "two" })).toEqual(["Screens must be a number"]);
    expect(messagesOf({ cf_text0000: "A", cf_sing0000: "phone" })).toEqual([
      "Device: 'phone' is not one of the choices",
    ]);
    expect(messagesOf({ cf_text0000: "A", cf_mult0000: "laptop" })).toEqual([
      "Kinds must be a list of its choices",
    ]);
    expect(messagesOf({ cf_text0000: "A", cf_chek0000: "yes" })).toEqual([
      "VIP must be ticked or not (true or false)",
    ]);
    expect(messagesOf({ cf_text0000: "A", cf_date0000: "2026-02-30" })).toEqual([
      "Bought on must be a date (YYYY-MM-DD)",
    ]);
    expect(messagesOf({ cf_text0000: "A\u0000" })).toEqual(["Asset tag must not contain control characters"]);
    expect(messagesOf({ cf_text0000: "x".repeat(501) })).toEqual([
      "Asset tag must be at most 500 characters",
    ]);
  });

  it("refuses unknown, retired and other categories' fields", () => {
    expect(messagesOf({ cf_text0000: "A", cf_nope0000: "x" })).toEqual([
      "Custom fields: there is no field 'cf_nope0000'",
    ]);
    expect(messagesOf({ cf_text0000: "A", cf_reti0000: "x" })).toEqual(["Old is no longer asked for"]);
    expect(messagesOf({ cf_text0000: "A", cf_soft0000: "x" })).toEqual(["Licence is not asked for Hardware"]);
  });

  it("a required checkbox must be ticked", () => {
    const consent = [field({ id: "cf_cons0000", label: "I agree", type: "checkbox", required: true })];
    const schema = valuesSchemaFor(consent, "Network");
    expect(schema.safeParse({ cf_cons0000: false }).error?.issues[0]?.message).toBe("I agree must be ticked");
    expect(schema.parse({ cf_cons0000: true })).toEqual({ cf_cons0000: true });
  });

  it("keeps only the current category's values, and reads values as people do", () => {
    expect(pickValuesFor(definitions, "Software", { cf_text0000: "A", cf_soft0000: "K" })).toEqual({
      cf_soft0000: "K",
    });
    expect(formatCustomFieldValue(definitions[3]!, ["laptop", "desktop"])).toBe("Laptop, Desktop");
    expect(formatCustomFieldValue(definitions[2]!, "desktop")).toBe("Desktop");
    expect(formatCustomFieldValue(definitions[4]!, true)).toBe("Yes");
    expect(formatCustomFieldValue(definitions[0]!, null)).toBe("—");
  });
});

describe("customFieldInputSchema", () => {
  const message = (input: object) => customFieldInputSchema.safeParse(input).error?.issues[0]?.message;
  it("names the field of a bad definition", () => {
    expect(message({ label: "", type: "text" })).toBe("Label is required");
    expect(message({ label: "Device", type: "single_choice", options: [{ label: "A" }] })).toBe(
      "Options: at least two choices",
    );
    expect(
      message({ label: "Device", type: "multiple_choice", options: [{ label: "A" }, { label: "a" }] }),
    ).toBe("Options: duplicate choice 'a'");
    expect(message({ label: "Tag", type: "text", options: [{ label: "A" }, { label: "B" }] })).toBe(
      "Options: only choice fields have options",
    );
    expect(message({ label: "Tag", type: "text", surprise: 1 })).toMatch(/surprise/);
  });
  it("fills the defaults: every category, optional, no help", () => {
    expect(customFieldInputSchema.parse({ label: " Tag ", type: "text" })).toEqual({
      label: "Tag",
      type: "text",
      category: null,
      required: false,
      helpText: "",
      options: [],
    });
  });
});
