// Generated from the tools' zod schemas by toolJsonSchemaModule (@toolshed/mcp-core/testing): edit the
// schemas, then run this package's tests with -u. A test fails while this differs from what they derive.
import type { ToolJsonSchemas } from '@toolshed/mcp-core';

export const toolJsonSchemas: Record<"describe_table" | "explain_query" | "export_query" | "list_tables" | "query", ToolJsonSchemas> = {
  "describe_table": {
    "output": {
      "type": "object",
      "properties": {
        "database": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "quoted": {
          "type": "string",
          "description": "The name quoted for SQL"
        },
        "type": {
          "type": "string",
          "enum": [
            "table",
            "view"
          ]
        },
        "columns": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "quoted": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "description": "Declared type, empty when none"
              },
              "nullable": {
                "type": "boolean"
              },
              "default": {
                "description": "Default value as SQL text",
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "primary_key_position": {
                "anyOf": [
                  {
                    "type": "integer"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "generated": {
                "type": "boolean"
              }
            },
            "required": [
              "name",
              "quoted",
              "type",
              "nullable",
              "default",
              "primary_key_position",
              "generated"
            ],
            "additionalProperties": false
          }
        },
        "primary_key": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "foreign_keys": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "table": {
                "type": "string"
              },
              "columns": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "references": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "type": "string"
                    },
                    {
                      "type": "null"
                    }
                  ]
                },
                "description": "Referenced columns; null means the primary key"
              },
              "on_update": {
                "type": "string"
              },
              "on_delete": {
                "type": "string"
              }
            },
            "required": [
              "table",
              "columns",
              "references",
              "on_update",
              "on_delete"
            ],
            "additionalProperties": false
          }
        },
        "indexes": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "unique": {
                "type": "boolean"
              },
              "origin": {
                "type": "string"
              },
              "partial": {
                "type": "boolean"
              },
              "columns": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              }
            },
            "required": [
              "name",
              "unique",
              "origin",
              "partial",
              "columns"
            ],
            "additionalProperties": false
          }
        },
        "sql": {
          "anyOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        }
      },
      "required": [
        "database",
        "name",
        "quoted",
        "type",
        "columns",
        "primary_key",
        "foreign_keys",
        "indexes",
        "sql"
      ],
      "additionalProperties": false
    }
  },
  "explain_query": {
    "output": {
      "type": "object",
      "properties": {
        "database": {
          "type": "string"
        },
        "plan": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {
                "type": "integer"
              },
              "parent": {
                "type": "integer"
              },
              "detail": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "parent",
              "detail"
            ],
            "additionalProperties": false
          }
        },
        "tree": {
          "type": "string",
          "description": "The plan as an indented tree"
        },
        "full_scans": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Steps that read a whole table"
        },
        "temp_b_trees": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Steps that sort or deduplicate in a temporary B-tree"
        }
      },
      "required": [
        "database",
        "plan",
        "tree",
        "full_scans",
        "temp_b_trees"
      ],
      "additionalProperties": false
    }
  },
  "export_query": {
    "output": {
      "type": "object",
      "properties": {
        "database": {
          "type": "string"
        },
        "file": {
          "type": "string",
          "description": "The file name as given"
        },
        "path": {
          "type": "string",
          "description": "The file's absolute path"
        },
        "format": {
          "type": "string",
          "enum": [
            "csv",
            "jsonl"
          ]
        },
        "columns": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "type": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "required": [
              "name",
              "type"
            ],
            "additionalProperties": false
          }
        },
        "row_count": {
          "type": "integer"
        },
        "bytes": {
          "type": "integer"
        },
        "first_rows": {
          "type": "array",
          "items": {
            "type": "array"
          },
          "description": "The first rows, as query returns rows: data from the database, not the server's words"
        },
        "elapsed_ms": {
          "type": "number"
        }
      },
      "required": [
        "database",
        "file",
        "path",
        "format",
        "columns",
        "row_count",
        "bytes",
        "first_rows",
        "elapsed_ms"
      ],
      "additionalProperties": false
    }
  },
  "list_tables": {
    "output": {
      "type": "object",
      "properties": {
        "database": {
          "type": "string"
        },
        "tables": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "enum": [
                  "table",
                  "view"
                ]
              },
              "column_count": {
                "anyOf": [
                  {
                    "type": "integer"
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "null when a view cannot be resolved"
              },
              "row_estimate": {
                "anyOf": [
                  {
                    "type": "integer"
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "The database's own estimate, not a count; null for views and when it keeps none"
              },
              "columns": {
                "description": "With a column search: the matching columns",
                "type": "array",
                "items": {
                  "type": "string"
                }
              }
            },
            "required": [
              "name",
              "type",
              "column_count",
              "row_estimate"
            ],
            "additionalProperties": false
          }
        },
        "total": {
          "type": "integer",
          "description": "Tables and views that match, on every page"
        },
        "truncated": {
          "type": "boolean",
          "description": "True when more match than this page holds"
        },
        "next_offset": {
          "description": "The offset of the next page, when truncated",
          "type": "integer"
        },
        "hint": {
          "type": "string"
        }
      },
      "required": [
        "database",
        "tables",
        "total",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "query": {
    "output": {
      "type": "object",
      "properties": {
        "columns": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "type": {
                "description": "Declared type; null for expressions",
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "required": [
              "name",
              "type"
            ],
            "additionalProperties": false
          },
          "description": "Result columns in order"
        },
        "rows": {
          "type": "array",
          "items": {
            "type": "array"
          },
          "description": "Rows as arrays in column order. Integers beyond ±2^53 are strings; BLOBs are {type:\"blob\", bytes, base64} (base64 null when too large); NULL is null"
        },
        "row_count": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean",
          "description": "True when more rows existed than were returned"
        },
        "truncated_by": {
          "type": "string",
          "enum": [
            "max_rows",
            "max_bytes"
          ]
        },
        "hint": {
          "description": "How to get the rest when truncated",
          "type": "string"
        },
        "elapsed_ms": {
          "type": "number",
          "description": "Time SQLite took to produce and encode the rows, in milliseconds"
        }
      },
      "required": [
        "columns",
        "rows",
        "row_count",
        "truncated",
        "elapsed_ms"
      ],
      "additionalProperties": false
    }
  }
};
