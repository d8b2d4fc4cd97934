import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MemoryRouter } from "#client/lib/router/router.tsx";
import { ArticleLinks } from "./article-links.tsx";

const show = (text: string) =>
  render(
    <MemoryRouter>
      <p>
        <ArticleLinks text={text} renderText={(part) => part.toUpperCase()} />
      </p>
    </MemoryRouter>,
  );

describe("ArticleLinks", () => {
  it("turns a pasted /kb address, relative or full, into a link to the article and leaves the rest to renderText", () => {
    show("see /kb/connect-to-the-vpn-7 or http://localhost:3000/kb/reset-password-12.");
    expect(screen.getByRole("link", { name: "/kb/connect-to-the-vpn-7" })).toHaveAttribute(
      "href",
      "/kb/connect-to-the-vpn-7",
    );
    expect(screen.getByRole("link", { name: "http://localhost:3000/kb/reset-password-12" })).toHaveAttribute(
      "href",
      "/kb/reset-password-12",
    );
    expect(screen.getByText(/^SEE/)).toBeInTheDocument();
  });

  it("leaves text without an article address alone", () => {
    show("nothing to link /kb/ here");
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
    expect(screen.getByText("NOTHING TO LINK /KB/ HERE")).toBeInTheDocument();
  });
});
