import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  AutomationRule,
  AutomationRuleInput,
  AutomationRuleList,
  AutomationRuleTry,
} from "#shared/automation/automation-rule.schemas.ts";
import type { RuleTrigger } from "#shared/automation/rule-conditions.ts";

// Decision 076: the automation rules, administrators only.
export const automationKeys = {
  all: ["automation-rules"] as const,
  list: () => [...automationKeys.all, "list"] as const,
};

const basePath = "/api/automation/rules";
const rulePath = (id: string) => `${basePath}/${encodeURIComponent(id)}`;

/** Every rule, in the order they run. */
export const automationRuleListQuery = () =>
  queryOptions({
    queryKey: automationKeys.list(),
    queryFn: ({ signal }) => apiFetch<AutomationRuleList>(basePath, { signal }),
    select: (list) => list.rules,
  });

/** Any change: the list is read again (positions and switches are the server's). */
function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: automationKeys.all }),
  });
}

/** Adds a rule (`id` null) at the end, or replaces one. */
export const useSaveAutomationRule = () =>
  useRefreshAfter(({ id, input }: { id: string | null; input: AutomationRuleInput }) =>
    apiFetch<AutomationRule>(id ? rulePath(id) : basePath, { method: id ? "PUT" : "POST", body: input }),
  );

export const useSetAutomationRuleEnabled = () =>
  useRefreshAfter(({ id, enabled }: { id: string; enabled: boolean }) =>
    apiFetch<AutomationRule>(`${rulePath(id)}/enabled`, { method: "PUT", body: { enabled } }),
  );

/** The whole order, first to last. */
export const useReorderAutomationRules = () =>
  useRefreshAfter((ruleIds: string[]) =>
    apiFetch<AutomationRuleList>(`${basePath}/order`, { method: "PUT", body: { ruleIds } }),
  );

export const useDeleteAutomationRule = () =>
  useRefreshAfter((id: string) => apiFetch<void>(rulePath(id), { method: "DELETE" }));

/** "Try": how many open tickets the conditions hold for now; changes nothing, so nothing is read again. */
export const useTryAutomationRule = () =>
  useMutation({
    mutationFn: (input: { trigger: RuleTrigger; conditions: unknown[] }) =>
      apiFetch<AutomationRuleTry>(`${basePath}/try`, { method: "POST", body: input }),
  });
