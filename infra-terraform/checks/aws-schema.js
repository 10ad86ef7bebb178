"use strict";
// Reads argument and block names of hashicorp/aws resources and data sources from the classes that
// @cdktf/provider-aws generates from the provider's schema (one folder per type, e.g. lib/dynamodb-table).
const fs = require("fs");
const path = require("path");

const LIB = path.join(path.dirname(require.resolve("@cdktf/provider-aws/package.json")), "lib");

// Each generated struct has a `<name>ToHclTerraform(struct)` function, and the resource class a
// `synthesizeHclAttributes()` method, listing `<argument>: { value: ..., isBlock: ... }` entries. A nested
// block's value calls the struct function of that block.
const ENTRY = /(\w+): \{\s*value: ([^\n]*)/g;
const STRUCT_REF = /(?<![.\w])(\w+)ToHclTerraform\b/;

function entries(body) {
  const names = new Map();
  for (const [, name, value] of body.matchAll(ENTRY)) {
    const ref = STRUCT_REF.exec(value);
    names.set(name, ref ? ref[1] : null);
  }
  return names;
}

function parseFolder(folder, type) {
  const file = path.join(LIB, folder, "index.js");
  if (!fs.existsSync(file)) return null;
  const source = fs.readFileSync(file, "utf8");
  if (!source.includes(`.tfResourceType = "${type}";`)) return null;
  const structs = new Map();
  for (const [, name, body] of source.matchAll(/^function (\w+)ToHclTerraform\(struct\) \{\n([\s\S]*?)^\}/gm)) {
    structs.set(name, entries(body));
  }
  const top = /synthesizeHclAttributes\(\) \{\n([\s\S]*?)\n    \}\n/.exec(source);
  if (!top) throw new Error(`${file}: no synthesizeHclAttributes()`);
  const resolve = (names) => {
    const node = new Map();
    for (const [name, ref] of names) {
      node.set(name, ref ? () => resolve(structs.get(ref) || new Map()) : null);
    }
    return node;
  };
  return resolve(entries(top[1]));
}

const cache = new Map();

/**
 * The schema of an AWS resource ("resource") or data source ("data") type, or null when the provider has no
 * such type. A schema maps each argument name to null, and each nested block name to a function returning the
 * block's schema.
 */
function awsSchema(kind, type) {
  const key = `${kind} ${type}`;
  if (!cache.has(key)) {
    const folder = (kind === "data" ? "data-aws-" : "") + type.replace(/^aws_/, "").replace(/_/g, "-");
    cache.set(key, parseFolder(folder, type));
  }
  return cache.get(key);
}

module.exports = { awsSchema };
