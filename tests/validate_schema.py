#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 7) with Debian's python3-jsonschema.

    validate_schema.py SCHEMA FILE.json...

Each FILE.json is a rule file or scenario as tests/test_schema.cpp converted it from YAML.
Prints one line per error, `FILE: PATH: MESSAGE`, and `N files, M errors`; exit status 0 when
there is no error, 1 when there are, 2 when the schema itself is not a valid schema.
"""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        print(f"{sys.argv[1]}: not a valid schema: {e.message}")
        return 2
    validator = jsonschema.Draft7Validator(schema)
    errors = 0
    for path in sys.argv[2:]:
        document = json.load(open(path, encoding="utf-8"))
        for e in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path))):
            errors += 1
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"{path}: {where}: {e.message[:300]}")
    print(f"{len(sys.argv) - 2} files, {errors} errors")
    return 1 if errors else 0


sys.exit(main())
