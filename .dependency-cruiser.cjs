// Import rules a machine checks (docs/architecture.md, "Where code goes"). Run by `npm run lint`
// through scripts/check-structure.mjs, which adds the one rule dependency-cruiser cannot say: no two
// server folders import each other.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: the modules cannot be understood, tested or loaded one without the other.",
      from: {},
      to: { circular: true },
    },
    {
      name: "shared-is-pure",
      severity: "error",
      comment: "src/shared is used by the browser and the server alike: it imports nothing of either.",
      from: { path: "^src/shared/" },
      to: { path: "^src/(server|client)/" },
    },
    {
      name: "client-features-are-independent",
      severity: "error",
      comment:
        "A client feature does not import another feature: what two features share goes to components/ or lib/, and pages compose features.",
      from: { path: "^src/client/features/([^/]+)/" },
      to: { path: "^src/client/features/([^/]+)/", pathNot: "^src/client/features/$1/" },
    },
    {
      name: "production-code-never-imports-tests",
      severity: "error",
      from: { path: "^src/", pathNot: ["\\.test\\.tsx?$", "^src/(server|client)/test/"] },
      to: { path: ["\\.test\\.tsx?$", "^src/(server|client)/test/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
  },
};
