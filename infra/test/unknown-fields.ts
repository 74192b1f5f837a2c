/**
 * Unknown fields. The schemas kubernetes-models validates with allow extra properties, so a
 * misspelt field (`runAsNonroot`, `readinesProbe`) would pass them and be refused only by the API
 * server's strict field validation, or silently dropped by an older client. The same package
 * ships TypeScript declarations generated from the same OpenAPI spec: this walks each object along
 * its declared type with the TypeScript checker and reports every key the type does not have.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { KINDS, REPO, type LoadedDoc } from './manifests';

/** The declared type of each allowed kind, from the package's .d.ts files (one program, built once). */
function declaredTypes(): { checker: ts.TypeChecker; types: Map<string, ts.Type> } {
  // A module that is not on disk: it only imports the interfaces, so module resolution starts in infra/test.
  const root = join(REPO, 'infra', 'test', '__kubernetes_types__.mts');
  const ids = Object.keys(KINDS);
  const text =
    ids.map((id, i) => `import type { I${KINDS[id].kind} as T${i} } from '${KINDS[id].module}/${KINDS[id].kind}';`).join('\n') +
    `\nexport interface Roots {\n${ids.map((id, i) => `  '${id}': T${i};`).join('\n')}\n}\n`;
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) =>
    name === root ? ts.createSourceFile(name, text, lang) : getSourceFile.call(host, name, lang, ...rest);
  host.fileExists = (name) => name === root || fileExists.call(host, name);
  host.readFile = (name) => (name === root ? text : readFile.call(host, name));
  const program = ts.createProgram([root], options, host);
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (errors.length > 0) throw new Error(`kubernetes-models' declarations did not load:\n${errors.join('\n')}`);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(root)!;
  const rootsSymbol = checker.getSymbolAtLocation(source)!.exports!.get(ts.escapeLeadingUnderscores('Roots'))!;
  const roots = checker.getDeclaredTypeOfSymbol(rootsSymbol);
  const types = new Map(ids.map((id) => [id, checker.getTypeOfSymbol(roots.getProperty(id)!)]));
  return { checker, types };
}

let cached: ReturnType<typeof declaredTypes> | undefined;

export function unknownFieldProblems(docs: LoadedDoc[]): string[] {
  cached ??= declaredTypes();
  const { checker, types } = cached;
  const problems: string[] = [];

  const walk = (value: unknown, type: ts.Type, path: string, report: (p: string) => void): void => {
    if (value === null || typeof value !== 'object') return; // scalars: the schema checks their types
    // `T | undefined` for optional fields: keep the object part.
    const parts = type.isUnion() ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null))) : [type];
    const objectType = parts.find((t) => t.flags & ts.TypeFlags.Object);
    if (!objectType) return; // a scalar type given an object: the schema reports that
    if (Array.isArray(value)) {
      if (!checker.isArrayType(objectType)) return;
      const element = checker.getTypeArguments(objectType as ts.TypeReference)[0];
      value.forEach((v, i) => walk(v, element, `${path}[${i}]`, report));
      return;
    }
    const indexType = checker.getIndexInfoOfType(objectType, ts.IndexKind.String)?.type;
    for (const [key, v] of Object.entries(value)) {
      const prop = checker.getPropertyOfType(objectType, key);
      if (prop) walk(v, checker.getTypeOfSymbol(prop), `${path}.${key}`, report);
      else if (indexType) walk(v, indexType, `${path}.${key}`, report); // maps: labels, data, selectors
      else report(`${path}.${key} is not a field of ${checker.typeToString(objectType)}`);
    }
  };

  for (const { file, doc } of docs) {
    const type = types.get(`${doc.apiVersion}/${doc.kind}`);
    if (!type) continue; // not an allowed kind: schemaProblems reports it
    walk(doc, type, doc.kind, (p) => problems.push(`${file}: ${doc.kind} ${doc.metadata?.name}: ${p}`));
  }
  return problems;
}
