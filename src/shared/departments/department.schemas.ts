import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { defaultDepartment } from "#shared/users/user.schemas.ts";

export const departmentNameMaxLength = 100;
export const departmentsMax = 200;

const departmentNameSchema = storableText(
  z
    .string({ error: "Department name must be text" })
    .trim()
    .min(1, "Department name is required")
    .max(departmentNameMaxLength, `Department name must be at most ${departmentNameMaxLength} characters`),
  "Department name",
);

/** Case and surrounding spaces do not make a new department: "finance" is "Finance" listed twice. */
export const departmentKey = (name: string) => name.trim().toLocaleLowerCase("en-US");

/**
 * The departments offered on the create form and in user management, in the order admins put them.
 * General stays in the list: it is the default department of a new ticket and a new user, so
 * a form must never start on a department that is no longer offered. Renaming a department changes
 * only what is offered; tickets and users keep the text they were saved with (docs/decisions/023).
 */
export const departmentListSchema = z.object({
  departments: z
    .array(departmentNameSchema, { error: "Departments must be a list of names" })
    .min(1, `Departments must list at least ${defaultDepartment}`)
    .max(departmentsMax, `At most ${departmentsMax} departments`)
    .superRefine((names, ctx) => {
      const seen = new Set<string>();
      names.forEach((name, index) => {
        const key = departmentKey(name);
        if (key && seen.has(key)) {
          ctx.addIssue({ code: "custom", path: [index], message: `${name} is listed twice` });
        }
        seen.add(key);
      });
      if (!names.includes(defaultDepartment)) {
        ctx.addIssue({
          code: "custom",
          message: `${defaultDepartment} must stay in the list (the default department of new tickets and users)`,
        });
      }
    }),
});
export type DepartmentList = z.infer<typeof departmentListSchema>;

export const defaultDepartmentList: DepartmentList = { departments: [defaultDepartment] };
