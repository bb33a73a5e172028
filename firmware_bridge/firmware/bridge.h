/* Protocol core of the reference firmware: framing, CRC, sequenced events, commands.
 * Portable C: the hardware is reached only through the hw_* functions below, which the
 * board file (uno.c) implements. */
#ifndef DICETABLE_BRIDGE_H
#define DICETABLE_BRIDGE_H

#include <stdint.h>

/* Events the board holds until the host acknowledges them (the protocol allows up to 64). */
#define EVENT_WINDOW 8
/* Largest payload of an event this firmware raises or accepts through the test hook. */
#define EVENT_PAYLOAD 20
#define RESEND_MS 150     /* since the oldest unacknowledged event was (re)sent */
#define FAST_RESEND_MS 30 /* after an acknowledgement that acknowledges nothing new */
#define HEARTBEAT_MS 1000

/* --- implemented by the board file --- */
void hw_write(const uint8_t *data, uint8_t n);
uint32_t hw_millis(void);
uint16_t hw_capabilities(void);
const char *hw_board_id(void);
uint16_t hw_boot_id(void);
void hw_battery(uint16_t *mv, uint8_t *pct, uint8_t *flags);
void hw_set_light(uint8_t level);
void hw_show_outcome(uint8_t outcome);
/* Fire the popper; returns 0 when busy (a pulse is under way). */
uint8_t hw_fire_popper(void);
/* The first HELLO since boot arrived. */
void hw_host_greeted(void);

/* --- called by the board file --- */
uint16_t crc16_update(uint16_t crc, uint8_t byte);
/* Feed one received byte. */
void bridge_receive(uint8_t byte);
/* Timers: resend unacknowledged events, heartbeat. Call often. */
void bridge_poll(void);
/* Raise an event; returns 0 (and counts it) when the window is full. */
uint8_t bridge_event(uint8_t type, const uint8_t *payload, uint8_t n);
/* The popper finished its stroke: ROLL_DONE, then (test hook) the events armed for this roll. */
void bridge_roll_done(void);

#endif
