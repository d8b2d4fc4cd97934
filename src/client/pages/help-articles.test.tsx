import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { activateLocale } from "#client/lib/i18n.ts";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { ArticleSummary } from "#shared/articles/article.schemas.ts";
import HelpArticlesPage from "./help-articles.tsx";

const summary = (n: number): ArticleSummary => ({
  id: n,
  slug: `article-${n}-${n}`,
  title: `Article ${n}`,
  category: "Software",
  tags: [],
  status: "published",
  visibility: "public",
  updatedAt: "2026-11-20T10:00:00.000Z",
  views: 0,
});

describe("/kb", () => {
  it("shows 25 articles and the next 25 on Show more articles, until the last page", async () => {
    const server = stubFetch({
      "GET /api/me": { body: makeMe({ role: "user" }) },
      "GET /api/articles": ({ url }) => {
        const page = Number(new URL(url, "http://localhost").searchParams.get("page") ?? 1);
        const first = (page - 1) * 25;
        const count = page === 1 ? 25 : 3;
        return {
          body: {
            items: Array.from({ length: count }, (_, n) => summary(first + n + 1)),
            nextPage: page === 1 ? 2 : null,
          },
        };
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<HelpArticlesPage />, { path: "/kb" });
    const user = userEvent.setup();

    expect(await screen.findByRole("link", { name: "Article 25" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Article 26" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show more articles" }));
    expect(await screen.findByRole("link", { name: "Article 28" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Article 1" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Show more articles" })).not.toBeInTheDocument();
    expect(server.calls.map((call) => call.url)).toContain("/api/articles?sort=recent&page=2");
  });

  it("names the categories in the reader's language, in the list and in the category filter", async () => {
    await activateLocale("de");
    try {
      const server = stubFetch({
        "GET /api/me": { body: makeMe({ role: "user" }) },
        "GET /api/articles": { body: { items: [{ ...summary(1), category: "Network" }], nextPage: null } },
      });
      vi.stubGlobal("fetch", server.fetchStub);
      renderWithApp(<HelpArticlesPage />, { path: "/kb" });

      expect(await screen.findByRole("link", { name: "Article 1" })).toBeInTheDocument();
      expect(screen.getByText("Netzwerk", { selector: "span" })).toBeInTheDocument();
      expect(screen.getByRole("option", { name: "Sonstiges" })).toBeInTheDocument();
    } finally {
      await activateLocale("en");
    }
  });
});
