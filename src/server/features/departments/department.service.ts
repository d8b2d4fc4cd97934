import type { DepartmentList } from "#shared/departments/department.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { readSetting } from "../settings/settings.service.ts";

/**
 * The departments to offer, for every signed-in person: people pick from them on the create form and
 * admins in user management. Only admins change them (Admin settings, area "departments").
 */
export function listDepartments(ctx: ServiceContext): Promise<DepartmentList> {
  return readSetting(ctx.db, "departments");
}
