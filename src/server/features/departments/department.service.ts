import type { ServiceContext } from "#server/context.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import type { DepartmentList } from "#shared/departments/department.schemas.ts";

/**
 * The departments to offer, for every signed-in person: people pick from them on the create form and
 * admins in user management. Only admins change them (Admin settings, area "departments").
 */
export function listDepartments(ctx: ServiceContext): Promise<DepartmentList> {
  return readSetting(ctx.db, "departments");
}
