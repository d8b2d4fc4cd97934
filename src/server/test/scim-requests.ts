import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { CreatedScimToken } from "#shared/scim/scim-token.schemas.ts";
import { request, type TestApp } from "./test-app.ts";

/** A SCIM token made as an administrator does it: on Admin settings › Provisioning (SCIM). */
export async function createScimToken(t: TestApp, adminCookie: string, name = "Entra ID") {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/admin/scim/tokens",
    cookie: adminCookie,
    payload: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedScimToken>();
}

/**
 * A request as an identity provider sends it: the token, SCIM's content type, no cookie and no Origin
 * (Entra ID and Okta call from their servers).
 */
export function scim(
  t: TestApp,
  token: string | null,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: {
      accept: "application/scim+json",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "content-type": "application/scim+json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** The body of an answer that must be a SCIM error with this status (and scimType, if given). */
export function expectScimError(response: LightMyRequestResponse, status: number, scimType?: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/scim\+json/);
  const body = response.json<{ schemas: string[]; status: string; scimType?: string; detail: string }>();
  expect(body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
  expect(body.status).toBe(String(status));
  if (scimType) expect(body.scimType).toBe(scimType);
  expect(body.detail.length).toBeGreaterThan(10);
  return body;
}
