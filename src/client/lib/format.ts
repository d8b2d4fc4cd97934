const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "Nov 21, 2025, 5:33 AM" in the reader's locale. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
