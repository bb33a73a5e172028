/* The dice-table board protocol: numbers shared with firmware_bridge/messages.py.
 * The spec is firmware_bridge/PROTOCOL.md. */
#ifndef DICETABLE_PROTOCOL_H
#define DICETABLE_PROTOCOL_H

#define PROTO_MAJOR 1
#define PROTO_MINOR 0

#define FW_MAJOR 1
#define FW_MINOR 0
#define FW_PATCH 0

#define MAX_PAYLOAD 64
#define MAX_RAW (MAX_PAYLOAD + 5) /* type, seq, length, payload, CRC */
#define MAX_ENCODED (MAX_RAW + 1)

/* host -> board commands (answered) */
#define MSG_HELLO 0x01
#define MSG_PING 0x02
#define MSG_SET_LIGHT 0x03
#define MSG_SHOW_OUTCOME 0x04
#define MSG_TRIGGER_ROLL 0x05
#define MSG_GET_STATUS 0x06
#define MSG_INJECT 0x3F
/* host -> board, never answered */
#define MSG_EVENT_ACK 0x40
/* board -> host replies */
#define MSG_HELLO_REPLY 0x81
#define MSG_ACK 0x82
#define MSG_NAK 0x83
#define MSG_HEARTBEAT 0x84
#define MSG_STATUS 0x85
/* board -> host events (sequenced, acknowledged) */
#define MSG_BUTTON 0x90
#define MSG_MOTION_STARTED 0x91
#define MSG_MOTION_STOPPED 0x92
#define MSG_ROLL_DONE 0x93
#define MSG_DIE_FACE 0x94
#define MSG_HEALTH 0x95
#define MSG_ERROR 0x96
#define MSG_EVENT_FIRST 0x90
#define MSG_EVENT_LAST 0xBF

/* capabilities (HELLO_REPLY) */
#define CAP_BUTTON 0x0001
#define CAP_MOTION 0x0002
#define CAP_POPPER 0x0004
#define CAP_FACES 0x0008
#define CAP_LIGHT 0x0010
#define CAP_OUTCOME 0x0020
#define CAP_BATTERY 0x0040
#define CAP_TEST_HOOK 0x0080

/* NAK codes */
#define NAK_UNKNOWN_TYPE 1
#define NAK_BAD_PAYLOAD 2
#define NAK_UNSUPPORTED 3
#define NAK_BUSY 4
#define NAK_NOT_READY 5

/* SHOW_OUTCOME values */
#define SHOW_IDLE 0
#define SHOW_SUCCESS 1
#define SHOW_FAILURE 2
#define SHOW_CRITICAL_SUCCESS 3
#define SHOW_CRITICAL_FAILURE 4

/* ERROR event codes */
#define ERR_POPPER_JAMMED 1
#define ERR_SENSOR_FAULT 2
#define ERR_QUEUE_OVERFLOW 3
#define ERR_BROWN_OUT 4

/* INJECT's first byte (test hook) */
#define INJECT_NOW 0
#define INJECT_AT_NEXT_ROLL 1

#endif
