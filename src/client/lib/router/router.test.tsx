import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { lazy, Suspense } from "react";
import { describe, expect, it } from "vitest";
import { Link } from "./links.tsx";
import { Outlet } from "./route-matching.tsx";
import { createMemoryRouter, RouterProvider, useIsNavigating, useSearchParams } from "./router.tsx";

/** A page whose code arrives when the test says so, as a lazy chunk on a slow network. */
function slowPage() {
  let arrive: () => void = () => {};
  const loaded = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const Page = lazy(async () => {
    await loaded;
    return { default: () => <h1>Forgot Password</h1> };
  });
  return { Page, arrive };
}

function Layout() {
  const isNavigating = useIsNavigating();
  return (
    <main aria-busy={isNavigating || undefined} inert={isNavigating}>
      <Suspense fallback={<p>Loading</p>}>
        <Outlet />
      </Suspense>
    </main>
  );
}

describe("the router while the next page's code downloads", () => {
  it("keeps the last page on screen but marks it busy and inert, until the next page draws", async () => {
    const { Page, arrive } = slowPage();
    const router = createMemoryRouter(
      [
        {
          element: <Layout />,
          children: [
            {
              path: "/sign-in",
              element: (
                <>
                  <h1>Sign In</h1>
                  <Link to="/forgot-password">Forgot password?</Link>
                </>
              ),
            },
            { path: "/forgot-password", element: <Page /> },
          ],
        },
      ],
      { initialEntries: ["/sign-in"] },
    );
    render(<RouterProvider router={router} />);
    const main = screen.getByRole("main");
    expect(main).not.toHaveAttribute("aria-busy");
    expect(main).not.toHaveAttribute("inert");

    await userEvent.click(screen.getByRole("link", { name: "Forgot password?" }));
    // The move is a transition: no spinner, the sign-in page stays, but it is left.
    expect(screen.getByRole("heading", { name: "Sign In" })).toBeInTheDocument();
    expect(screen.queryByText("Loading")).not.toBeInTheDocument();
    expect(main).toHaveAttribute("aria-busy", "true");
    expect(main).toHaveAttribute("inert");

    await act(async () => arrive());
    expect(await screen.findByRole("heading", { name: "Forgot Password" })).toBeInTheDocument();
    expect(main).not.toHaveAttribute("aria-busy");
    expect(main).not.toHaveAttribute("inert");
  });

  it("does not mark a page busy when nothing moved", () => {
    const router = createMemoryRouter(
      [{ element: <Layout />, children: [{ path: "/", element: <h1>Home</h1> }] }],
      {
        initialEntries: ["/"],
      },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole("main")).not.toHaveAttribute("aria-busy");
  });
});

describe("changing the address's parameters", () => {
  /** Two controls of one page, each keeping the other's parameter, as the list's sort and search do. */
  function ListPage() {
    const [params, setParams] = useSearchParams();
    const keep = (key: string, value: string) =>
      setParams(
        (current) => {
          current.set(key, value);
          return current;
        },
        { replace: true },
      );
    return (
      <button
        type="button"
        onClick={() => {
          // Two changes in one moment, before the page draws again (a move is a transition).
          keep("sort", "priority");
          keep("q", "printer");
        }}
      >
        Sort and search ({params.toString()})
      </button>
    );
  }

  it("starts each change from the address as it is now, so the second keeps the first", async () => {
    const router = createMemoryRouter([{ path: "/tickets", element: <ListPage /> }], {
      initialEntries: ["/tickets"],
    });
    render(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole("button"));
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get("sort")).toBe("priority");
    expect(search.get("q")).toBe("printer");
  });
});
