/* Protocol core of the reference firmware; see bridge.h and PROTOCOL.md. */
#include "bridge.h"

#include <string.h>

#include "protocol.h"

struct event {
    uint8_t type;
    uint8_t len;
    uint8_t payload[EVENT_PAYLOAD];
};

static struct event queue[EVENT_WINDOW]; /* ring of unacknowledged events */
static uint8_t queue_head;               /* index of the oldest */
static uint8_t queue_len;
static uint8_t oldest_seq;               /* seq of the oldest */
static uint8_t host_ready;
static uint32_t last_send;                /* when the oldest unacknowledged event was (re)sent */
static uint32_t fast_at;                  /* when it was last resent on a duplicate acknowledgement */
static uint8_t fast_ok = 1;
static uint32_t last_heartbeat;

static int16_t last_cmd_seq = -1;         /* answered once per seq: a retry gets the same answer */
static int32_t host_session = -1;         /* HELLO's session: a new one forgets last_cmd_seq */
static uint8_t last_answer, last_nak_code, last_nak_type;

static uint16_t rx_frames, rx_errors, rx_unknown, retransmits, events_dropped;
static uint8_t overflow_pending;
static uint8_t throw_no;

static uint8_t rx_buf[MAX_ENCODED];
static uint8_t rx_len;
static uint8_t rx_overlong;

#ifdef TEST_HOOK
static struct event armed[EVENT_WINDOW]; /* injected events held for the next roll */
static uint8_t armed_len;
#endif

uint16_t crc16_update(uint16_t crc, uint8_t byte)
{
    /* CRC-16/IBM-3740: poly 0x1021, init 0xFFFF, not reflected, no final XOR */
    crc ^= (uint16_t)byte << 8;
    for (uint8_t i = 0; i < 8; i++)
        crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    return crc;
}

static void send_frame(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t n)
{
    uint8_t raw[MAX_RAW];
    uint8_t out[MAX_ENCODED + 1];
    uint8_t len = 0, code_at = 0, o = 1, code = 1;
    uint16_t crc = 0xFFFF;

    raw[len++] = type;
    raw[len++] = seq;
    raw[len++] = n;
    memcpy(raw + len, payload, n);
    len += n;
    for (uint8_t i = 0; i < len; i++)
        crc = crc16_update(crc, raw[i]);
    raw[len++] = crc >> 8;
    raw[len++] = crc & 0xFF;
    /* COBS: frames are shorter than 254 bytes, so every block fits one code byte */
    for (uint8_t i = 0; i < len; i++) {
        if (raw[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = raw[i];
            code++;
        }
    }
    out[code_at] = code;
    out[o++] = 0;
    hw_write(out, o);
}

static void send_event(uint8_t k)
{
    const struct event *e = &queue[(queue_head + k) % EVENT_WINDOW];
    send_frame(e->type, (uint8_t)(oldest_seq + k), e->payload, e->len);
}

static void resend_all(void)
{
    for (uint8_t k = 0; k < queue_len; k++)
        send_event(k);
    last_send = hw_millis();
}

uint8_t bridge_event(uint8_t type, const uint8_t *payload, uint8_t n)
{
    if (queue_len >= EVENT_WINDOW || n > EVENT_PAYLOAD) {
        events_dropped++;
        overflow_pending = 1;
        return 0;
    }
    struct event *e = &queue[(queue_head + queue_len) % EVENT_WINDOW];
    e->type = type;
    e->len = n;
    memcpy(e->payload, payload, n);
    queue_len++;
    if (host_ready) {
        send_event(queue_len - 1);
        if (queue_len == 1)
            last_send = hw_millis();
    }
    return 1;
}

static void acknowledged(uint8_t seq)
{
    uint8_t done = (uint8_t)(seq - oldest_seq);
    if (done >= queue_len) {
        /* acknowledges nothing new: the host holds later events and misses the oldest; resend it now */
        if (queue_len && (fast_ok || hw_millis() - fast_at >= FAST_RESEND_MS)) {
            fast_ok = 0;
            fast_at = hw_millis();
            retransmits++;
            send_event(0);
        }
        return;
    }
    done++;
    queue_head = (queue_head + done) % EVENT_WINDOW;
    queue_len -= done;
    oldest_seq = seq + 1;
    last_send = hw_millis();
    fast_ok = 1;
    if (overflow_pending && queue_len < EVENT_WINDOW) {
        uint8_t err[2] = {ERR_QUEUE_OVERFLOW, (uint8_t)events_dropped};
        overflow_pending = 0;
        bridge_event(MSG_ERROR, err, 2);
    }
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v & 0xFF;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xFFFF);
}

static void hello(uint8_t seq, const uint8_t *hp, uint8_t hn)
{
    int32_t session = hn >= 4 ? (int32_t)(((uint16_t)hp[2] << 8) | hp[3]) : -1;
    uint8_t p[10 + 16];
    const char *id = hw_board_id();
    uint8_t n = 10;
    p[0] = PROTO_MAJOR;
    p[1] = PROTO_MINOR;
    p[2] = FW_MAJOR;
    p[3] = FW_MINOR;
    p[4] = FW_PATCH;
    put16(p + 5, hw_capabilities());
    put16(p + 7, hw_boot_id());
    p[9] = oldest_seq;
    while (*id && n < sizeof p)
        p[n++] = (uint8_t)*id++;
    send_frame(MSG_HELLO_REPLY, seq, p, n);
    if (!host_ready) {
        host_ready = 1;
        hw_host_greeted();
    }
    if (session < 0 || session != host_session)
        last_cmd_seq = -1; /* another host: its seqs mean nothing to the last one's */
    host_session = session;
    last_heartbeat = hw_millis();
    resend_all();
}

static void status(uint8_t seq)
{
    uint8_t p[18];
    uint16_t mv;
    uint8_t pct, flags;
    hw_battery(&mv, &pct, &flags);
    put16(p, mv);
    p[2] = pct;
    p[3] = flags;
    put32(p + 4, hw_millis() / 1000);
    put16(p + 8, rx_frames);
    put16(p + 10, rx_errors);
    put16(p + 12, rx_unknown);
    put16(p + 14, retransmits);
    put16(p + 16, events_dropped);
    send_frame(MSG_STATUS, seq, p, sizeof p);
}

static void answer(uint8_t seq)
{
    if (last_answer == MSG_ACK) {
        send_frame(MSG_ACK, seq, 0, 0);
    } else if (last_answer == MSG_STATUS) {
        status(seq);
    } else {
        uint8_t p[2] = {last_nak_code, last_nak_type};
        send_frame(MSG_NAK, seq, p, 2);
    }
}

void bridge_roll_done(void)
{
    throw_no++;
    bridge_event(MSG_ROLL_DONE, &throw_no, 1);
#ifdef TEST_HOOK
    for (uint8_t i = 0; i < armed_len; i++)
        bridge_event(armed[i].type, armed[i].payload, armed[i].len);
    armed_len = 0;
#endif
}

#ifdef TEST_HOOK
static uint8_t inject(const uint8_t *p, uint8_t n)
{
    if (n < 2 || n - 2 > EVENT_PAYLOAD || p[1] < MSG_EVENT_FIRST || p[1] > MSG_EVENT_LAST || p[0] > INJECT_AT_NEXT_ROLL)
        return NAK_BAD_PAYLOAD;
    if (p[0] == INJECT_NOW)
        return bridge_event(p[1], p + 2, n - 2) ? 0 : NAK_BUSY;
    if (armed_len >= EVENT_WINDOW)
        return NAK_BUSY;
    armed[armed_len].type = p[1];
    armed[armed_len].len = n - 2;
    memcpy(armed[armed_len].payload, p + 2, n - 2);
    armed_len++;
    return 0;
}
#endif

/* Carry out a command; returns 0 (ACK) or a NAK code. */
static uint8_t execute(uint8_t type, const uint8_t *p, uint8_t n)
{
    switch (type) {
    case MSG_PING:
        return 0;
    case MSG_SET_LIGHT:
        if (n != 1)
            return NAK_BAD_PAYLOAD;
        hw_set_light(p[0]);
        return 0;
    case MSG_SHOW_OUTCOME:
        if (n != 1 || p[0] > SHOW_CRITICAL_FAILURE)
            return NAK_BAD_PAYLOAD;
        hw_show_outcome(p[0]);
        return 0;
    case MSG_TRIGGER_ROLL: /* the dice hint is for boards that choose their dice: this one cannot */
        return hw_fire_popper() ? 0 : NAK_BUSY;
    case MSG_INJECT:
#ifdef TEST_HOOK
        return inject(p, n);
#else
        return NAK_UNSUPPORTED;
#endif
    default:
        rx_unknown++;
        return NAK_UNKNOWN_TYPE;
    }
}

static void handle(uint8_t *f)
{
    uint8_t type = f[0], seq = f[1], n = f[2];
    uint8_t *p = f + 3;

    rx_frames++;
    if (type == MSG_HELLO) {
        hello(seq, p, n);
    } else if (type == MSG_EVENT_ACK) {
        if (host_ready) /* before HELLO it can only be meant for an earlier boot's events */
            acknowledged(seq);
    } else if (type >= 0x40) {
        rx_unknown++; /* never answered: skip */
    } else if (!host_ready) {
        last_answer = MSG_NAK;
        last_nak_code = NAK_NOT_READY;
        last_nak_type = type;
        answer(seq);
    } else if (last_cmd_seq == seq) {
        answer(seq);
    } else {
        last_cmd_seq = seq;
        if (type == MSG_GET_STATUS) {
            last_answer = MSG_STATUS;
        } else {
            uint8_t code = execute(type, p, n);
            last_answer = code ? MSG_NAK : MSG_ACK;
            last_nak_code = code;
            last_nak_type = type;
        }
        answer(seq);
    }
}

static void frame_end(void)
{
    uint8_t i = 0, o = 0;
    uint16_t crc = 0xFFFF;

    /* COBS decode in place (the output never overtakes the input) */
    while (i < rx_len) {
        uint8_t code = rx_buf[i];
        if (code == 0 || i + code > rx_len)
            goto bad;
        i++;
        for (uint8_t k = 1; k < code; k++)
            rx_buf[o++] = rx_buf[i++];
        if (code != 0xFF && i < rx_len)
            rx_buf[o++] = 0;
    }
    if (o < 5 || rx_buf[2] != o - 5) /* the length byte catches a frame grown by a stray zero */
        goto bad;
    for (uint8_t k = 0; k < o - 2; k++)
        crc = crc16_update(crc, rx_buf[k]);
    if (crc != (uint16_t)((rx_buf[o - 2] << 8) | rx_buf[o - 1]))
        goto bad;
    handle(rx_buf);
    return;
bad:
    rx_errors++;
}

void bridge_receive(uint8_t byte)
{
    if (byte == 0) {
        if (rx_overlong)
            rx_errors++;
        else if (rx_len)
            frame_end();
        rx_len = 0;
        rx_overlong = 0;
    } else if (rx_len < sizeof rx_buf) {
        rx_buf[rx_len++] = byte;
    } else {
        rx_overlong = 1;
    }
}

void bridge_poll(void)
{
    uint32_t now = hw_millis();
    if (!host_ready)
        return;
    if (queue_len && now - last_send >= RESEND_MS) {
        retransmits += queue_len;
        resend_all();
    }
    if (now - last_heartbeat >= HEARTBEAT_MS) {
        uint8_t p[6];
        last_heartbeat = now;
        put16(p, hw_boot_id());
        put32(p + 2, now / 1000);
        send_frame(MSG_HEARTBEAT, (uint8_t)(oldest_seq + queue_len), p, 6);
    }
}
