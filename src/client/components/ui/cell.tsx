import type { ReactNode } from "react";

/**
 * A cell of a table that folds on small screens: a block with its column's name above the value there,
 * an ordinary table cell from md up (where the header row names the column).
 */
export function Cell({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td className={`block min-w-0 md:table-cell md:px-4 md:py-3 md:align-middle ${className ?? ""}`}>
      <span className="mb-0.5 block text-xs font-medium text-slate-500 md:hidden">{label}</span>
      {children}
    </td>
  );
}
