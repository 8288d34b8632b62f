// Generated from the tools' zod schemas by toolJsonSchemaModule (@toolshed/mcp-core/testing): edit the
// schemas, then run this package's tests with -u. A test fails while this differs from what they derive.
import type { ToolJsonSchemas } from '@toolshed/mcp-core';

export const toolJsonSchemas: Record<"delete_message" | "flag_message" | "list_mailboxes" | "move_message" | "preview_email" | "read_message" | "save_attachment" | "save_draft" | "search_messages" | "send_email" | "validate_recipients", ToolJsonSchemas> = {
  "delete_message": {
    "input": {
      "type": "object",
      "properties": {
        "mailbox": {
          "default": "INBOX",
          "type": "string"
        },
        "uid": {
          "type": "integer"
        }
      },
      "required": [
        "uid"
      ]
    },
    "output": {
      "type": "object",
      "properties": {
        "outcome": {
          "type": "string",
          "enum": [
            "moved_to_trash",
            "deleted_permanently"
          ]
        },
        "trash": {
          "type": "string"
        }
      },
      "required": [
        "outcome",
        "trash"
      ],
      "additionalProperties": false
    }
  },
  "flag_message": {
    "input": {
      "type": "object",
      "properties": {
        "mailbox": {
          "default": "INBOX",
          "type": "string"
        },
        "uid": {
          "type": "integer"
        },
        "add": {
          "maxItems": 10,
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "remove": {
          "maxItems": 10,
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "uid"
      ]
    },
    "output": {
      "type": "object",
      "properties": {
        "flags": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "flags"
      ],
      "additionalProperties": false
    }
  },
  "list_mailboxes": {
    "input": {
      "type": "object",
      "properties": {}
    },
    "output": {
      "type": "object",
      "properties": {
        "mailboxes": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "special_use": {
                "description": "\\Sent, \\Trash, \\Drafts, \\Archive, \\Junk, \\All, \\Flagged",
                "type": "string"
              },
              "messages": {
                "type": "integer"
              },
              "unseen": {
                "type": "integer"
              }
            },
            "required": [
              "name"
            ],
            "additionalProperties": false
          }
        },
        "truncated": {
          "type": "boolean"
        },
        "total": {
          "type": "integer"
        }
      },
      "required": [
        "mailboxes",
        "truncated",
        "total"
      ],
      "additionalProperties": false
    }
  },
  "move_message": {
    "input": {
      "type": "object",
      "properties": {
        "mailbox": {
          "default": "INBOX",
          "type": "string"
        },
        "uid": {
          "type": "integer"
        },
        "to_mailbox": {
          "type": "string"
        }
      },
      "required": [
        "uid",
        "to_mailbox"
      ]
    },
    "output": {
      "type": "object",
      "properties": {
        "moved": {
          "type": "boolean"
        },
        "to_mailbox": {
          "type": "string"
        },
        "new_uid": {
          "type": "integer"
        }
      },
      "required": [
        "moved",
        "to_mailbox"
      ],
      "additionalProperties": false
    }
  },
  "preview_email": {
    "input": {
      "type": "object",
      "properties": {
        "to": {
          "description": "One address per item",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "cc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "bcc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "subject": {
          "type": "string"
        },
        "text": {
          "type": "string"
        },
        "html": {
          "type": "string"
        },
        "reply_to": {
          "type": "string"
        },
        "in_reply_to": {
          "type": "string"
        },
        "references": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "attachments": {
          "description": "File names in the attachments directory",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "reply_to_uid": {
          "type": "integer"
        },
        "reply_all": {
          "type": "boolean"
        },
        "forward_uid": {
          "type": "integer"
        },
        "mailbox": {
          "type": "string"
        }
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "would_send": {
          "type": "boolean",
          "description": "True when no check blocks the message now"
        },
        "blocked_by": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "check": {
                "type": "string"
              },
              "field": {
                "type": "string"
              },
              "reason": {
                "type": "string"
              }
            },
            "required": [
              "check",
              "field",
              "reason"
            ],
            "additionalProperties": false
          }
        },
        "needs_confirmation": {
          "type": "boolean",
          "description": "Whether send_email will ask the user first"
        },
        "delivery": {
          "type": "string",
          "enum": [
            "smtp",
            "outbox"
          ]
        },
        "from": {
          "type": "string"
        },
        "to": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "cc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "bcc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "reply_to": {
          "anyOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "subject": {
          "type": "string"
        },
        "headers": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "value": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "value"
            ],
            "additionalProperties": false
          },
          "description": "The header block as sent (Message-ID and Date are assigned again at sending; Bcc is never a header)"
        },
        "text": {
          "anyOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "html": {
          "anyOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "body_truncated": {
          "type": "boolean",
          "description": "True when text or html is longer than 20000 characters and was cut here (not in the message)"
        },
        "attachments": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "size_bytes": {
                "type": "integer"
              },
              "content_type": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "size_bytes",
              "content_type"
            ],
            "additionalProperties": false
          }
        },
        "size_bytes": {
          "anyOf": [
            {
              "type": "integer"
            },
            {
              "type": "null"
            }
          ],
          "description": "The whole message as sent; null when a check stopped it being built"
        },
        "recipient_rule": {
          "type": "string",
          "description": "Who may receive mail from this server"
        },
        "notes": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "About a reply or forward as built: recipients left out, for one"
        }
      },
      "required": [
        "would_send",
        "blocked_by",
        "needs_confirmation",
        "delivery",
        "from",
        "to",
        "cc",
        "bcc",
        "reply_to",
        "subject",
        "headers",
        "text",
        "html",
        "body_truncated",
        "attachments",
        "size_bytes",
        "recipient_rule",
        "notes"
      ],
      "additionalProperties": false
    }
  },
  "read_message": {
    "output": {
      "type": "object",
      "properties": {
        "mailbox": {
          "type": "string"
        },
        "uid": {
          "type": "integer"
        },
        "date": {
          "type": "string"
        },
        "from": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "to": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "cc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "subject": {
          "type": "string"
        },
        "message_id": {
          "type": "string"
        },
        "flags": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "size": {
          "type": "integer"
        },
        "body": {
          "type": "string"
        },
        "body_characters": {
          "type": "integer",
          "description": "The whole body, before any cut"
        },
        "body_truncated": {
          "type": "boolean"
        },
        "message_truncated": {
          "type": "boolean",
          "description": "The message exceeded the bytes a call may fetch; its end is missing"
        },
        "attachments": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "index": {
                "type": "integer",
                "description": "Its number for save_attachment, from 1"
              },
              "filename": {
                "type": "string"
              },
              "content_type": {
                "type": "string"
              },
              "size": {
                "type": "integer"
              }
            },
            "required": [
              "index",
              "filename",
              "content_type",
              "size"
            ],
            "additionalProperties": false
          }
        }
      },
      "required": [
        "mailbox",
        "uid",
        "from",
        "to",
        "cc",
        "subject",
        "flags",
        "size",
        "body",
        "body_characters",
        "body_truncated",
        "message_truncated",
        "attachments"
      ],
      "additionalProperties": false
    }
  },
  "save_attachment": {
    "input": {
      "type": "object",
      "properties": {
        "mailbox": {
          "default": "INBOX",
          "type": "string"
        },
        "uid": {
          "type": "integer"
        },
        "attachment": {
          "anyOf": [
            {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            },
            {
              "type": "string"
            }
          ],
          "description": "Number from read_message (from 1) or file name"
        }
      },
      "required": [
        "uid",
        "attachment"
      ]
    },
    "output": {
      "type": "object",
      "properties": {
        "saved_as": {
          "type": "string"
        },
        "size": {
          "type": "integer"
        },
        "content_type": {
          "type": "string"
        }
      },
      "required": [
        "saved_as",
        "size",
        "content_type"
      ],
      "additionalProperties": false
    }
  },
  "save_draft": {
    "input": {
      "type": "object",
      "properties": {
        "to": {
          "maxItems": 20,
          "type": "array",
          "items": {
            "type": "string",
            "maxLength": 320
          }
        },
        "subject": {
          "type": "string",
          "maxLength": 998
        },
        "text": {
          "type": "string",
          "maxLength": 100000
        },
        "html": {
          "type": "string",
          "maxLength": 1000000
        },
        "attachments": {
          "description": "File names in the attachments directory",
          "maxItems": 100,
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "in_reply_to": {
          "type": "string"
        },
        "references": {
          "maxItems": 100,
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "subject"
      ]
    },
    "output": {
      "type": "object",
      "properties": {
        "mailbox": {
          "type": "string"
        },
        "uid": {
          "type": "integer"
        }
      },
      "required": [
        "mailbox"
      ],
      "additionalProperties": false
    }
  },
  "search_messages": {
    "output": {
      "type": "object",
      "properties": {
        "mailbox": {
          "type": "string"
        },
        "total": {
          "type": "integer",
          "description": "Messages that matched"
        },
        "truncated": {
          "type": "boolean",
          "description": "More matched than were returned"
        },
        "messages": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "uid": {
                "type": "integer"
              },
              "date": {
                "type": "string"
              },
              "from": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "to": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "subject": {
                "type": "string"
              },
              "flags": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "size": {
                "type": "integer"
              },
              "has_attachments": {
                "type": "boolean"
              },
              "snippet": {
                "type": "string"
              }
            },
            "required": [
              "uid",
              "from",
              "to",
              "subject",
              "flags",
              "has_attachments",
              "snippet"
            ],
            "additionalProperties": false
          }
        }
      },
      "required": [
        "mailbox",
        "total",
        "truncated",
        "messages"
      ],
      "additionalProperties": false
    }
  },
  "send_email": {
    "input": {
      "type": "object",
      "properties": {
        "to": {
          "description": "One address per item",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "cc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "bcc": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "subject": {
          "type": "string"
        },
        "text": {
          "type": "string"
        },
        "html": {
          "type": "string"
        },
        "reply_to": {
          "type": "string"
        },
        "in_reply_to": {
          "type": "string"
        },
        "references": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "attachments": {
          "description": "File names in the attachments directory",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "reply_to_uid": {
          "type": "integer"
        },
        "reply_all": {
          "type": "boolean"
        },
        "forward_uid": {
          "type": "integer"
        },
        "mailbox": {
          "type": "string"
        },
        "idempotency_key": {
          "description": "Any unique string; a retry with the same key sends nothing",
          "type": "string"
        }
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "message_id": {
          "type": "string",
          "description": "The Message-ID header, for threading replies (in_reply_to, references)"
        },
        "delivery": {
          "type": "string",
          "enum": [
            "smtp",
            "outbox"
          ],
          "description": "smtp: handed to the mail server; outbox: written as a file, not sent"
        },
        "accepted": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Recipients the server accepted"
        },
        "rejected": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "address": {
                "type": "string"
              },
              "reason": {
                "type": "string"
              }
            },
            "required": [
              "address",
              "reason"
            ],
            "additionalProperties": false
          },
          "description": "Recipients the server refused, with its reason; the others still received the message"
        },
        "size_bytes": {
          "type": "integer"
        },
        "outbox_file": {
          "description": "The .eml file written, in outbox mode",
          "type": "string"
        },
        "replayed": {
          "type": "boolean",
          "description": "True when this idempotency key was already used for this message: the first result, nothing sent again"
        }
      },
      "required": [
        "message_id",
        "delivery",
        "accepted",
        "rejected",
        "size_bytes",
        "replayed"
      ],
      "additionalProperties": false
    }
  },
  "validate_recipients": {
    "input": {
      "type": "object",
      "properties": {
        "addresses": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "One per item"
        },
        "check_domains": {
          "default": true,
          "description": "Look up MX records",
          "type": "boolean"
        }
      },
      "required": [
        "addresses"
      ]
    },
    "output": {
      "type": "object",
      "properties": {
        "results": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "input": {
                "type": "string"
              },
              "valid": {
                "type": "boolean",
                "description": "A single, well-formed address"
              },
              "address": {
                "description": "The address as it would be sent (international domains in punycode)",
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "allowed": {
                "type": "boolean",
                "description": "This server may send to it"
              },
              "problems": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "domain": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "name": {
                        "type": "string"
                      },
                      "unicode": {
                        "type": "string"
                      },
                      "mail": {
                        "type": "string",
                        "enum": [
                          "mx",
                          "implicit",
                          "null_mx",
                          "none",
                          "unknown",
                          "not_checked"
                        ]
                      },
                      "hosts": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      },
                      "detail": {
                        "type": "string"
                      }
                    },
                    "required": [
                      "name",
                      "unicode",
                      "mail",
                      "hosts",
                      "detail"
                    ],
                    "additionalProperties": false
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "required": [
              "input",
              "valid",
              "address",
              "allowed",
              "problems",
              "domain"
            ],
            "additionalProperties": false
          }
        },
        "recipient_rule": {
          "type": "string"
        }
      },
      "required": [
        "results",
        "recipient_rule"
      ],
      "additionalProperties": false
    }
  }
};
