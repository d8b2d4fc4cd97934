import { describe, expect, it } from "vitest";
import { helmetOptions, securityHeadersOf } from "./security-headers.ts";

describe("the security headers, read once from helmet", () => {
  it("are what helmet's middleware sets on a response, and it removes X-Powered-By", () => {
    const { set, removed } = securityHeadersOf({ strictTransportSecurity: true });
    const names = set.map(([name]) => name);
    expect(names).toContain("content-security-policy");
    expect(names).toContain("strict-transport-security");
    expect(Object.fromEntries(set)["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(removed).toEqual(["x-powered-by"]);
  });

  it("forbid framing the same way in both headers: frame-ancestors 'none' and X-Frame-Options DENY", () => {
    for (const isHttps of [false, true]) {
      const headers = Object.fromEntries(securityHeadersOf(helmetOptions({ isHttps })).set);
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"]).toBe("DENY");
    }
  });

  it("keep our addresses from other sites, but let a form posted to our own pages say where it came from", () => {
    // no-referrer made browsers post our own forms with Origin: null, which the same-origin check refuses.
    const headers = Object.fromEntries(securityHeadersOf(helmetOptions({ isHttps: false })).set);
    expect(headers["referrer-policy"]).toBe("same-origin");
  });

  it("turn a header off when helmet is told to", () => {
    const { set } = securityHeadersOf({ strictTransportSecurity: false, crossOriginEmbedderPolicy: false });
    const names = set.map(([name]) => name);
    expect(names).not.toContain("strict-transport-security");
    expect(names).not.toContain("cross-origin-embedder-policy");
  });

  it("fail at start, not on a request, when helmet rejects the options", () => {
    const smuggled = { contentSecurityPolicy: { directives: { "default-src": ["'self'; script-src *"] } } };
    expect(() => securityHeadersOf(smuggled)).toThrow(/invalid directive value for "default-src"/);
  });

  it("refuse a directive computed per request: every answer gets the headers read at start", () => {
    const perRequest = {
      contentSecurityPolicy: { directives: { "script-src": ["'self'", () => "'nonce-x'"] } },
    };
    expect(() => securityHeadersOf(perRequest)).toThrow(/per request/);
  });
});
