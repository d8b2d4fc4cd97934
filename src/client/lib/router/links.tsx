import type { AnchorHTMLAttributes, MouseEvent, Ref } from "react";
import { createPath, normalise, resolveTo, type To } from "./history.ts";
import { useRouter } from "./router-context.ts";

interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
}

function useLinkClick(
  to: To,
  { replace, state, target, onClick }: Pick<LinkProps, "replace" | "state" | "target" | "onClick">,
) {
  const { location, navigate } = useRouter();
  const path = resolveTo(to, location);
  const href = createPath(path);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey ||
      (target && target !== "_self")
    ) {
      return;
    }
    event.preventDefault();
    // As React Router: a link to the page one is on replaces its entry instead of adding one.
    navigate(href, { replace: replace ?? createPath(location) === href, state });
  };
  return { href, path, handleClick };
}

/** A link within the app: an <a href> that moves without reloading on a plain click. */
export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const { href, handleClick } = useLinkClick(to, { replace, state, target, onClick });
  return <a {...rest} href={href} target={target} onClick={handleClick} />;
}

interface NavLinkProps extends Omit<LinkProps, "className"> {
  className?: string | ((state: { isActive: boolean }) => string | undefined);
  end?: boolean;
}

/** A Link that knows when it leads to the current page (or one below it): aria-current="page". */
export function NavLink({
  to,
  replace,
  state,
  target,
  onClick,
  className,
  end = false,
  ...rest
}: NavLinkProps) {
  const { location } = useRouter();
  const { href, path, handleClick } = useLinkClick(to, { replace, state, target, onClick });
  const current = normalise(location.pathname).toLowerCase();
  const destination = normalise(path.pathname).toLowerCase();
  const isActive =
    current === destination || (!end && destination !== "/" && current.startsWith(`${destination}/`));
  const classes = typeof className === "function" ? className({ isActive }) : className;
  return (
    <a
      aria-current={isActive ? "page" : undefined}
      {...rest}
      className={classes}
      href={href}
      target={target}
      onClick={handleClick}
    />
  );
}
