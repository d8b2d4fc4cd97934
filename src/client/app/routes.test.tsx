import { isValidElement, type ReactNode } from "react";
import { describe, expect, it } from "vitest";
import type { RouteObject } from "#client/lib/router/route-matching.tsx";
import { type PageAccess, pageAccess, pageAccessOf } from "#shared/page-rendering/page-access.ts";
import { RedirectIfSignedIn, RequireSignIn } from "./guards.tsx";
import { routes } from "./routes.tsx";

/** Every page of the route table with the access its guards give it, as the shared table writes it. */
function accessByPath(
  list: RouteObject[],
  parent = "",
  guard: PageAccess | null = null,
): [string, PageAccess | null][] {
  return list.flatMap((route) => {
    const path = route.index ? parent || "/" : route.path ? `${parent}/${route.path}` : parent;
    const own = guardOf(route.element) ?? guard;
    if (route.children) return accessByPath(route.children, path, own);
    return [[path, own] as [string, PageAccess | null]];
  });
}

function guardOf(element: ReactNode): PageAccess | null {
  if (!isValidElement(element)) return null;
  if (element.type === RedirectIfSignedIn) return { signedOut: true };
  if (element.type !== RequireSignIn) return null;
  const props = element.props as {
    roles?: readonly string[];
    allowNoRole?: boolean;
    isTwoFactorSetup?: boolean;
    signInMessage?: unknown;
  };
  return {
    signedIn: true,
    ...(props.roles ? { roles: props.roles } : {}),
    ...(props.allowNoRole ? { allowNoRole: true } : {}),
    ...(props.isTwoFactorSetup ? { isTwoFactorSetup: true } : {}),
    ...(props.signInMessage ? { saysSignInFirst: true } : {}),
  } as PageAccess;
}

describe("the pages' access, as the server redirects by it", () => {
  const pages = accessByPath(routes).filter(([path]) => path !== "/*");

  it.each(pages)("%s: the client's guard and the server's table agree", (path, access) => {
    expect(pageAccessOf(path)).toEqual(access);
  });

  it("lists no page the app does not have", () => {
    const known = new Set(pages.map(([path]) => path));
    expect(Object.keys(pageAccess).filter((path) => !known.has(path))).toEqual([]);
  });
});
