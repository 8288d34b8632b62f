// Generated from the tools' zod schemas by toolJsonSchemaModule (@toolshed/mcp-core/testing): edit the
// schemas, then run this package's tests with -u. A test fails while this differs from what they derive.
import type { ToolJsonSchemas } from '@toolshed/mcp-core';

export const toolJsonSchemas: Record<"apply_reviewed_edit" | "copy_file" | "create_directory" | "delete_file" | "directory_tree" | "edit_file" | "get_file_info" | "list_allowed_directories" | "list_directory" | "list_directory_with_sizes" | "move_file" | "read_document" | "read_file" | "read_media_file" | "read_multiple_files" | "read_text_file" | "search_file_contents" | "search_files" | "write_file", ToolJsonSchemas> = {
  "apply_reviewed_edit": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "edits": {
          "minItems": 1,
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "oldText": {
                "type": "string"
              },
              "newText": {
                "type": "string"
              }
            },
            "required": [
              "oldText",
              "newText"
            ],
            "additionalProperties": false
          }
        },
        "digest": {
          "type": "string",
          "pattern": "^[0-9a-f]{64}$"
        }
      },
      "required": [
        "path",
        "edits",
        "digest"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "changed": {
          "type": "boolean"
        },
        "written": {
          "type": "boolean"
        },
        "digest": {
          "type": "string",
          "description": "SHA-256 of the file before the edits, hex"
        }
      },
      "required": [
        "content",
        "changed",
        "written",
        "digest"
      ],
      "additionalProperties": false
    }
  },
  "copy_file": {
    "input": {
      "type": "object",
      "properties": {
        "source": {
          "type": "string"
        },
        "destination": {
          "type": "string"
        }
      },
      "required": [
        "source",
        "destination"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "files": {
          "type": "integer"
        },
        "directories": {
          "type": "integer"
        },
        "bytes": {
          "type": "number"
        },
        "skipped": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Links and special files not copied, below the source"
        }
      },
      "required": [
        "content",
        "files",
        "directories",
        "bytes",
        "skipped"
      ],
      "additionalProperties": false
    }
  },
  "create_directory": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "created": {
          "type": "boolean"
        }
      },
      "required": [
        "content",
        "created"
      ],
      "additionalProperties": false
    }
  },
  "delete_file": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "recursive": {
          "default": false,
          "type": "boolean"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "files": {
          "type": "integer"
        },
        "directories": {
          "type": "integer"
        }
      },
      "required": [
        "content",
        "files",
        "directories"
      ],
      "additionalProperties": false
    }
  },
  "directory_tree": {
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "entries": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean"
        },
        "truncated_by": {
          "type": "string",
          "enum": [
            "max_entries",
            "max_depth"
          ]
        }
      },
      "required": [
        "content",
        "entries",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "edit_file": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "edits": {
          "minItems": 1,
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "oldText": {
                "type": "string",
                "description": "Exact text"
              },
              "newText": {
                "type": "string"
              }
            },
            "required": [
              "oldText",
              "newText"
            ],
            "additionalProperties": false
          }
        },
        "dryRun": {
          "default": false,
          "type": "boolean"
        }
      },
      "required": [
        "path",
        "edits"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "changed": {
          "type": "boolean"
        },
        "written": {
          "type": "boolean"
        },
        "digest": {
          "type": "string",
          "description": "SHA-256 of the file before the edits, hex"
        }
      },
      "required": [
        "content",
        "changed",
        "written",
        "digest"
      ],
      "additionalProperties": false
    }
  },
  "get_file_info": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "size": {
          "type": "number"
        },
        "created": {
          "type": "string",
          "description": "ISO 8601"
        },
        "modified": {
          "type": "string",
          "description": "ISO 8601"
        },
        "accessed": {
          "type": "string",
          "description": "ISO 8601"
        },
        "isDirectory": {
          "type": "boolean"
        },
        "isFile": {
          "type": "boolean"
        },
        "permissions": {
          "type": "string",
          "description": "Octal, as in 644"
        }
      },
      "required": [
        "content",
        "size",
        "created",
        "modified",
        "accessed",
        "isDirectory",
        "isFile",
        "permissions"
      ],
      "additionalProperties": false
    }
  },
  "list_allowed_directories": {
    "input": {
      "type": "object",
      "properties": {},
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "directories": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "path": {
                "type": "string"
              },
              "access": {
                "type": "string",
                "enum": [
                  "read",
                  "write"
                ]
              }
            },
            "required": [
              "path",
              "access"
            ],
            "additionalProperties": false
          }
        }
      },
      "required": [
        "content",
        "directories"
      ],
      "additionalProperties": false
    }
  },
  "list_directory": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "entries": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean"
        }
      },
      "required": [
        "content",
        "entries",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "list_directory_with_sizes": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "sortBy": {
          "default": "name",
          "type": "string",
          "enum": [
            "name",
            "size"
          ]
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "files": {
          "type": "integer"
        },
        "directories": {
          "type": "integer"
        },
        "total_bytes": {
          "type": "number"
        },
        "truncated": {
          "type": "boolean"
        }
      },
      "required": [
        "content",
        "files",
        "directories",
        "total_bytes",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "move_file": {
    "input": {
      "type": "object",
      "properties": {
        "source": {
          "type": "string"
        },
        "destination": {
          "type": "string"
        },
        "overwrite": {
          "default": false,
          "type": "boolean"
        }
      },
      "required": [
        "source",
        "destination"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "source": {
          "type": "string"
        },
        "destination": {
          "type": "string"
        }
      },
      "required": [
        "content",
        "source",
        "destination"
      ],
      "additionalProperties": false
    }
  },
  "read_document": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "first": {
          "description": "Page, sheet or part, from 1",
          "type": "integer",
          "minimum": 1
        },
        "last": {
          "type": "integer",
          "minimum": 1
        },
        "sheet": {
          "type": "string"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "format": {
          "type": "string",
          "enum": [
            "pdf",
            "docx",
            "xlsx"
          ]
        },
        "unit": {
          "type": "string",
          "enum": [
            "page",
            "sheet",
            "part"
          ]
        },
        "total": {
          "type": "integer",
          "description": "Pages, sheets or parts in the document"
        },
        "first": {
          "type": "integer"
        },
        "last": {
          "type": "integer",
          "description": "The last returned; first - 1 when none was"
        },
        "truncated": {
          "type": "boolean"
        },
        "next_first": {
          "description": "Pass as first to read on",
          "type": "integer"
        },
        "sheets": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "content",
        "format",
        "unit",
        "total",
        "first",
        "last",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "read_file": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "head": {
          "type": "integer",
          "minimum": 1
        },
        "tail": {
          "type": "integer",
          "minimum": 1
        },
        "offset": {
          "description": "From 1",
          "type": "integer",
          "minimum": 1
        },
        "limit": {
          "type": "integer",
          "minimum": 1
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "total_lines": {
          "type": "integer"
        },
        "first_line": {
          "type": "integer",
          "description": "0 when no line was returned"
        },
        "last_line": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean"
        },
        "next_offset": {
          "description": "Pass as offset to read on",
          "type": "integer"
        }
      },
      "required": [
        "content",
        "total_lines",
        "first_line",
        "last_line",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "read_media_file": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "array",
          "items": {
            "anyOf": [
              {
                "type": "object",
                "properties": {
                  "type": {
                    "type": "string",
                    "enum": [
                      "image",
                      "audio"
                    ]
                  },
                  "data": {
                    "type": "string"
                  },
                  "mimeType": {
                    "type": "string"
                  }
                },
                "required": [
                  "type",
                  "data",
                  "mimeType"
                ],
                "additionalProperties": false
              },
              {
                "type": "object",
                "properties": {
                  "type": {
                    "type": "string",
                    "const": "resource"
                  },
                  "resource": {
                    "type": "object",
                    "properties": {
                      "uri": {
                        "type": "string"
                      },
                      "mimeType": {
                        "type": "string"
                      },
                      "blob": {
                        "type": "string"
                      }
                    },
                    "required": [
                      "uri",
                      "blob"
                    ],
                    "additionalProperties": false
                  }
                },
                "required": [
                  "type",
                  "resource"
                ],
                "additionalProperties": false
              }
            ]
          }
        }
      },
      "required": [
        "content"
      ],
      "additionalProperties": false
    }
  },
  "read_multiple_files": {
    "input": {
      "type": "object",
      "properties": {
        "paths": {
          "minItems": 1,
          "maxItems": 100,
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "paths"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "files": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "path": {
                "type": "string"
              },
              "ok": {
                "type": "boolean"
              },
              "truncated": {
                "type": "boolean"
              },
              "error": {
                "type": "string"
              }
            },
            "required": [
              "path",
              "ok"
            ],
            "additionalProperties": false
          }
        }
      },
      "required": [
        "content",
        "files"
      ],
      "additionalProperties": false
    }
  },
  "read_text_file": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "head": {
          "type": "integer",
          "minimum": 1
        },
        "tail": {
          "type": "integer",
          "minimum": 1
        },
        "offset": {
          "description": "From 1",
          "type": "integer",
          "minimum": 1
        },
        "limit": {
          "type": "integer",
          "minimum": 1
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "total_lines": {
          "type": "integer"
        },
        "first_line": {
          "type": "integer",
          "description": "0 when no line was returned"
        },
        "last_line": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean"
        },
        "next_offset": {
          "description": "Pass as offset to read on",
          "type": "integer"
        }
      },
      "required": [
        "content",
        "total_lines",
        "first_line",
        "last_line",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "search_file_contents": {
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "matches": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "path": {
                "type": "string"
              },
              "line": {
                "type": "integer"
              },
              "text": {
                "type": "string"
              },
              "before": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "after": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              }
            },
            "required": [
              "path",
              "line",
              "text"
            ],
            "additionalProperties": false
          }
        },
        "files_searched": {
          "type": "integer"
        },
        "files_skipped_binary": {
          "type": "integer"
        },
        "files_skipped_too_large": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean"
        }
      },
      "required": [
        "content",
        "matches",
        "files_searched",
        "files_skipped_binary",
        "files_skipped_too_large",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "search_files": {
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "matches": {
          "type": "integer"
        },
        "truncated": {
          "type": "boolean"
        },
        "truncated_by": {
          "type": "string",
          "enum": [
            "max_entries",
            "max_depth"
          ]
        }
      },
      "required": [
        "content",
        "matches",
        "truncated"
      ],
      "additionalProperties": false
    }
  },
  "write_file": {
    "input": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        },
        "content": {
          "type": "string"
        },
        "mode": {
          "default": "replace",
          "type": "string",
          "enum": [
            "replace",
            "append"
          ]
        }
      },
      "required": [
        "path",
        "content"
      ],
      "additionalProperties": false
    },
    "output": {
      "type": "object",
      "properties": {
        "content": {
          "type": "string"
        },
        "bytes": {
          "type": "integer"
        },
        "created": {
          "type": "boolean"
        }
      },
      "required": [
        "content",
        "bytes",
        "created"
      ],
      "additionalProperties": false
    }
  }
};
