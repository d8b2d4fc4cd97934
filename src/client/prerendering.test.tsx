import { describe, expect, it } from "vitest";
import { oidcLabelPlaceholder, providerVariants } from "#shared/page-rendering/server-config.ts";
import { renderSignedOutPage } from "./prerendering.tsx";

// The build draws /sign-in once per set of sign-in methods (decision 061); the server sends the one it offers.
describe("the sign-in page as the build draws it", () => {
  it.each(providerVariants)(
    "draws only the sign-in buttons of the methods offered: %j",
    async (providers) => {
      const markup = await renderSignedOutPage("/sign-in", providers);
      expect(markup).toContain("Sign In");
      expect(markup.includes("Continue with Google")).toBe(providers.google);
      expect(markup.includes(oidcLabelPlaceholder)).toBe(providers.oidc !== null);
      // No buttons, no "or" line before them.
      expect(markup.includes(">or<")).toBe(providers.google || providers.oidc !== null);
    },
  );
});
