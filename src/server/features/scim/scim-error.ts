import { scimUrn } from "#shared/scim/scim.schemas.ts";

/** RFC 7644 §3.12's scimType values Helpdesk answers with. */
export type ScimType =
  | "uniqueness"
  | "invalidFilter"
  | "invalidValue"
  | "invalidSyntax"
  | "mutability"
  | "noTarget";

/** A failure answered in SCIM's own error shape, which identity providers read (not the API's ApiError). */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = "ScimError";
  }

  toBody() {
    return {
      schemas: [scimUrn.error],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.detail,
    };
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, "invalidValue");
export const invalidFilter = (detail: string) => new ScimError(400, detail, "invalidFilter");
export const invalidSyntax = (detail: string) => new ScimError(400, detail, "invalidSyntax");
export const userNotFound = (id: string) => new ScimError(404, `User ${id} not found`);
