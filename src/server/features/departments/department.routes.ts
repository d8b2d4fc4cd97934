import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { departmentListSchema } from "#shared/departments/department.schemas.ts";
import { listDepartments } from "./department.service.ts";

/** /api/departments: the list offered on forms, for every signed-in person (401 for anyone else). */
export async function departmentRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/departments", { schema: { response: { 200: departmentListSchema } } }, (request) =>
    listDepartments(contextOf(request)),
  );
}
