"use strict";
// Offline checks of Terraform files: HCL syntax (@cdktf/hcl2json), canonical formatting like `terraform fmt`
// (@cdktf/hcl-tools), and the names of AWS resource/data source types, arguments and nested blocks
// (@cdktf/provider-aws, generated from hashicorp/aws). This is not `terraform validate`: argument types,
// required arguments and references are not checked.
//
// Usage: node checks/check.js FOLDER...   Exit status 0 when every .tf file passes, 1 otherwise.
const fs = require("fs");
const { parse } = require("@cdktf/hcl2json");
const { format } = require("@cdktf/hcl-tools");
const { awsSchema } = require("./aws-schema.js");
const { tfFiles } = require("./tf-files.js");

const META = {
  resource: new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "provisioner", "connection"]),
  data: new Set(["count", "for_each", "provider", "depends_on", "lifecycle"]),
};

function firstDifference(actual, canonical) {
  const a = actual.split("\n");
  const c = canonical.split("\n");
  for (let i = 0; i < Math.max(a.length, c.length); i++) {
    if (a[i] !== c[i]) return `line ${i + 1}: expected ${JSON.stringify(c[i] ?? "")}, found ${JSON.stringify(a[i] ?? "")}`;
  }
  return "";
}

// Blocks appear in hcl2json output as arrays of objects; `dynamic "x" { content { ... } }` as dynamic.x[].content[].
function checkBody(body, schema, where, problems, meta) {
  for (const [name, value] of Object.entries(body)) {
    if (meta.has(name)) continue;
    if (name === "dynamic") {
      for (const [blockName, dynamics] of Object.entries(value)) {
        const block = schema.get(blockName);
        if (!block) {
          problems.push(`${where}: unknown block "${blockName}" (dynamic)`);
          continue;
        }
        for (const dynamic of dynamics) {
          for (const content of dynamic.content || []) checkBody(content, block(), `${where}.${blockName}`, problems, new Set());
        }
      }
      continue;
    }
    if (!schema.has(name)) {
      problems.push(`${where}: unknown argument or block "${name}"`);
      continue;
    }
    const block = schema.get(name);
    if (block && Array.isArray(value)) {
      for (const item of value) {
        if (item && typeof item === "object" && !Array.isArray(item)) checkBody(item, block(), `${where}.${name}`, problems, new Set());
      }
    }
  }
}

function checkAws(json, problems, file) {
  for (const kind of ["resource", "data"]) {
    for (const [type, named] of Object.entries(json[kind] || {})) {
      if (!type.startsWith("aws_")) continue;
      const schema = awsSchema(kind, type);
      for (const [name, bodies] of Object.entries(named)) {
        const where = `${file}: ${kind === "data" ? "data." : ""}${type}.${name}`;
        if (!schema) {
          problems.push(`${where}: hashicorp/aws has no ${kind === "data" ? "data source" : "resource type"} "${type}"`);
          continue;
        }
        for (const body of bodies) checkBody(body, schema, where, problems, META[kind]);
      }
    }
  }
}

async function main(roots) {
  if (roots.length === 0) throw new Error("usage: node checks/check.js FOLDER...");
  const files = tfFiles(roots);
  if (files.length === 0) throw new Error(`no .tf files under ${roots.join(", ")}`);
  const problems = [];
  for (const file of files) {
    const source = fs.readFileSync(file, "utf8");
    let json;
    try {
      json = await parse(file, source);
    } catch (e) {
      problems.push(`${file}: syntax: ${String(e.message || e).replace(/^parse config: /, "")}`);
      continue;
    }
    const canonical = await format(source);
    if (canonical !== source) problems.push(`${file}: not in canonical format (terraform fmt), ${firstDifference(source, canonical)}`);
    checkAws(json, problems, file);
  }
  for (const problem of problems) console.error(problem);
  console.log(`${files.length} .tf files checked (syntax, canonical format, AWS type/argument names): ${problems.length} problem(s)`);
  return problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (e) => {
    console.error(String(e.stack || e));
    process.exit(2);
  },
);
