/** Joins class names, skipping the falsy ones: cn("a", isOn && "b"). */
export const cn = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(" ");
