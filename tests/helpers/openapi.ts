import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/** The real upstream descriptions (copied into tests/fixtures), so our simulators stay honest. */
const FIXTURES = join(import.meta.dir, "..", "fixtures");

export const HELIX_OPENAPI = join(FIXTURES, "twitch", "helix-openapi.json");
export const GAME_OPENAPI = join(FIXTURES, "game-provider", "henrikdev-openapi.json");
export const GAME_FIXTURES = join(FIXTURES, "game-provider");

interface OpenApiDocument {
  components: { schemas: Record<string, unknown> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
}

/** Validates response bodies against an OpenAPI 3.0 document's schemas (nullable, $ref into components). */
export class OpenApiValidator {
  readonly #ajv: Ajv;
  readonly #doc: OpenApiDocument;
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(path: string) {
    this.#doc = JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument;
    this.#ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ components: this.#doc.components }, "doc");
  }

  /** The schema of `path`/`method`/`status` (application/json), rewritten to resolve refs in "doc". */
  #responseSchema(path: string, method: string, status: string): unknown {
    const response = this.#doc.paths[path]?.[method]?.responses[status];
    const schema = response?.content?.["application/json"]?.schema;
    if (!schema) throw new Error(`no ${method.toUpperCase()} ${path} ${status} schema in the document`);
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  }

  /** Returns the list of errors (empty when the body is valid). */
  check(path: string, method: string, status: string, body: unknown): string[] {
    const key = `${method} ${path} ${status}`;
    let validate = this.#cache.get(key);
    if (!validate) {
      validate = this.#ajv.compile(this.#responseSchema(path, method, status) as object);
      this.#cache.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
  }

  /** Validates against a named component schema. */
  checkSchema(name: string, body: unknown): string[] {
    let validate = this.#cache.get(`#${name}`);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `doc#/components/schemas/${name}` });
      this.#cache.set(`#${name}`, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
  }
}
