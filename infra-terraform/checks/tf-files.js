"use strict";
const fs = require("fs");
const path = require("path");

/** Every .tf file under the given folders, sorted, skipping node_modules and .terraform. */
function tfFiles(roots) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== ".terraform") walk(full);
      } else if (entry.name.endsWith(".tf")) {
        found.push(full);
      }
    }
  };
  for (const root of roots) {
    if (!fs.statSync(root).isDirectory()) throw new Error(`not a folder: ${root}`);
    walk(root);
  }
  return found.sort();
}

module.exports = { tfFiles };
