import { nowOf, type ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import { findUsersPage } from "#server/features/users/user-management.queries.ts";
import { notAllowedToManageUsers } from "#server/features/users/user-management.service.ts";
import { can } from "#shared/permissions.ts";
import type { ExportUsersQuery } from "#shared/users/user-management.schemas.ts";
import { toUserCsvCells, userCsvHeader } from "./csv-export.presenter.ts";
import { type CsvExport, csvFilename, csvStream } from "./csv-stream.ts";

type UserPageRow = Awaited<ReturnType<typeof findUsersPage>>[number];

/** The user list as an admin filtered it (search, role, status, order), every match, as CSV. */
export async function exportUsers(ctx: ServiceContext, query: ExportUsersQuery): Promise<CsvExport> {
  if (!can.manageUsers(ctx.actor)) throw forbidden(notAllowedToManageUsers);
  const chunks = await csvStream<UserPageRow>({
    header: userCsvHeader,
    readPage: (last, limit) =>
      findUsersPage(ctx.db, {
        ...query,
        after: last && { value: last.cursorValue, id: last.user.id },
        limit,
      }),
    toCells: (row) => toUserCsvCells(row.user),
  });
  return { filename: csvFilename("users", nowOf(ctx)), chunks };
}
