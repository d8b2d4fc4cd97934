import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { activateLocale } from "#client/lib/i18n.ts";
import { renderWithApp } from "#client/test/render.tsx";
import AppHelpPage from "./app-help.tsx";

beforeEach(() => {
  // jsdom lays nothing out, so it has no scrollIntoView.
  Element.prototype.scrollIntoView = vi.fn();
});

describe("AppHelpPage", () => {
  it("reads in German, the anchors unchanged", async () => {
    await activateLocale("de");
    try {
      renderWithApp(<AppHelpPage />, { path: "/Knowledge-base" });
      expect(screen.getByRole("heading", { level: 1, name: "Wissensdatenbank" })).toBeInTheDocument();
      const contents = screen.getByRole("navigation", { name: "Auf dieser Seite" });
      expect(within(contents).getByRole("link", { name: "Rollen" })).toHaveAttribute(
        "href",
        "/Knowledge-base#roles",
      );
      expect(screen.getByText("IT-Mitarbeiter, die die Probleme lösen.")).toBeInTheDocument();
    } finally {
      await activateLocale("en");
    }
  });

  it("has the About, Roles, Mission and Pages sections, each with its anchor in the table of contents", () => {
    renderWithApp(<AppHelpPage />, { path: "/Knowledge-base" });
    const contents = screen.getByRole("navigation", { name: "On this page" });
    for (const [title, id] of [
      ["About", "about"],
      ["Roles", "roles"],
      ["Mission", "mission"],
      ["Pages", "pages"],
    ] as const) {
      expect(within(contents).getByRole("link", { name: title })).toHaveAttribute(
        "href",
        `/Knowledge-base#${id}`,
      );
      expect(screen.getByRole("region", { name: title })).toHaveAttribute("id", id);
    }
  });

  it("describes the three roles, admins as directors", () => {
    renderWithApp(<AppHelpPage />, { path: "/Knowledge-base" });
    const roles = screen.getByRole("region", { name: "Roles" });
    expect(within(roles).getByRole("heading", { name: "User" })).toBeInTheDocument();
    expect(within(roles).getByRole("heading", { name: "Technician" })).toBeInTheDocument();
    expect(within(roles).getByRole("heading", { name: "Director (admin)" })).toBeInTheDocument();
    expect(roles).toHaveTextContent("Does not create tickets.");
  });

  it("links every page it describes", () => {
    renderWithApp(<AppHelpPage />, { path: "/Knowledge-base" });
    const pages = screen.getByRole("region", { name: "Pages" });
    const hrefs = within(pages)
      .getAllByRole("link")
      .map((link) => link.getAttribute("href"));
    expect(hrefs).toEqual([
      "/sign-in",
      "/sign-up",
      "/forgot-password",
      "/admin-signup",
      "/role-selection",
      "/user-home",
      "/technician-home",
      "/admin-home",
      "/tickets",
      "/notifications",
      "/profile",
      "/admin/user-management",
      "/demo/user-management",
      "/Knowledge-base",
      "/test-notifications",
      "/debug-notifications",
    ]);
  });

  it("goes to the section of the address's anchor and moves focus there", async () => {
    renderWithApp(<AppHelpPage />, { path: "/Knowledge-base#mission" });
    const mission = screen.getByRole("region", { name: "Mission" });
    await waitFor(() => expect(mission).toHaveFocus());
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
  });

  it("moves to a section from the table of contents", async () => {
    const user = userEvent.setup();
    const { router } = renderWithApp(<AppHelpPage />, { path: "/Knowledge-base" });
    const contents = screen.getByRole("navigation", { name: "On this page" });
    await user.click(within(contents).getByRole("link", { name: "Roles" }));
    expect(router.state.location.hash).toBe("#roles");
    await waitFor(() => expect(screen.getByRole("region", { name: "Roles" })).toHaveFocus());
  });
});
