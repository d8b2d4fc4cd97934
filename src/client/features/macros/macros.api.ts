import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  CreateMacroInput,
  Macro,
  MacroApplication,
  MacroList,
  MacroPreview,
  UpdateMacroInput,
} from "#shared/macros/macro.schemas.ts";

// Decision 075. The list's key is the one the ticket list's bulk bar reads too (ticket.api.ts).
export const macroKeys = {
  all: ["macros"] as const,
  list: () => [...macroKeys.all, "list"] as const,
  preview: (ticketId: string, macroId: string) => [...macroKeys.all, "preview", ticketId, macroId] as const,
};

const basePath = "/api/macros";
const macroPath = (id: string) => `${basePath}/${encodeURIComponent(id)}`;
const onTicketPath = (ticketId: string, macroId: string) =>
  `/api/tickets/${encodeURIComponent(ticketId)}/macros/${encodeURIComponent(macroId)}`;

/** Every macro the staff member may use (their own and the shared ones), sorted by title. */
export const macroListQuery = () =>
  queryOptions({
    queryKey: macroKeys.list(),
    queryFn: ({ signal }) => apiFetch<MacroList>(basePath, { signal }),
    select: (list) => list.items,
    staleTime: 60_000,
  });

/** What the macro would do to this ticket now; read again each time the dialog opens. */
export const macroPreviewQuery = (ticketId: string, macroId: string) =>
  queryOptions({
    queryKey: macroKeys.preview(ticketId, macroId),
    queryFn: ({ signal }) => apiFetch<MacroPreview>(`${onTicketPath(ticketId, macroId)}/preview`, { signal }),
    staleTime: 0,
    gcTime: 0,
  });

function useRefreshAfter<Input>(mutationFn: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: macroKeys.all }),
  });
}

export const useCreateMacro = () =>
  useRefreshAfter((input: CreateMacroInput) => apiFetch<Macro>(basePath, { method: "POST", body: input }));

export const useUpdateMacro = (id: string) =>
  useRefreshAfter((input: UpdateMacroInput) =>
    apiFetch<Macro>(macroPath(id), { method: "PATCH", body: input }),
  );

export const useDeleteMacro = () =>
  useRefreshAfter((id: string) => apiFetch<void>(macroPath(id), { method: "DELETE" }));

/** Applies the macro; the page that shows the ticket stores what comes back (`onApplied`). */
export const useApplyMacro = (ticketId: string) =>
  useMutation({
    mutationFn: (macroId: string) =>
      apiFetch<MacroApplication>(`${onTicketPath(ticketId, macroId)}/apply`, { method: "POST" }),
  });
