"use strict";
// Prints one JSON object that maps each .tf file under the given folders (by its path) to its hcl2json parse,
// for the Java tests to read.
// Usage: node checks/parse.js FOLDER...
const fs = require("fs");
const { parse } = require("@cdktf/hcl2json");
const { tfFiles } = require("./tf-files.js");

async function main(roots) {
  const parsed = {};
  for (const file of tfFiles(roots)) parsed[file] = await parse(file, fs.readFileSync(file, "utf8"));
  process.stdout.write(JSON.stringify(parsed));
}

main(process.argv.slice(2)).catch((e) => {
  console.error(String(e.stack || e));
  process.exit(1);
});
