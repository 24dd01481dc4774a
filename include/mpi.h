/*
 * mpi.h — HMPI's public header.
 *
 * Handles, constants and MPI_Status follow the MPI 5.0 standard ABI: handles are
 * pointers to incomplete structs, predefined handles are small constants in
 * disjoint ranges (so the library recognizes them with one compare and a mix-up
 * with another implementation's mpi.h fails loudly), MPI_Aint is intptr_t and
 * MPI_Offset/MPI_Count are int64_t. The semantics implemented are those of
 * MPI 3.1; MPI_VERSION says so.
 *
 * Every MPI_X function has a PMPI_X twin (the profiling interface).
 * This header is C and C++ compatible and warning-free with -Wall -Wextra.
 */
#ifndef HMPI_MPI_H
#define HMPI_MPI_H

#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define MPI_VERSION    3
#define MPI_SUBVERSION 1

#define HMPI 1
#define HMPI_VERSION_STRING "0.1.0"

typedef intptr_t MPI_Aint;
typedef int64_t  MPI_Offset;
typedef int64_t  MPI_Count;

typedef struct {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int MPI_internal[5];
} MPI_Status;

typedef struct MPI_ABI_Op* MPI_Op;
#define MPI_OP_NULL     ((MPI_Op)0x020)
#define MPI_SUM         ((MPI_Op)0x021)
#define MPI_MIN         ((MPI_Op)0x022)
#define MPI_MAX         ((MPI_Op)0x023)
#define MPI_PROD        ((MPI_Op)0x024)
#define MPI_BAND        ((MPI_Op)0x028)
#define MPI_BOR         ((MPI_Op)0x029)
#define MPI_BXOR        ((MPI_Op)0x02a)
#define MPI_LAND        ((MPI_Op)0x030)
#define MPI_LOR         ((MPI_Op)0x031)
#define MPI_LXOR        ((MPI_Op)0x032)
#define MPI_MINLOC      ((MPI_Op)0x038)
#define MPI_MAXLOC      ((MPI_Op)0x039)
#define MPI_REPLACE     ((MPI_Op)0x03c)
#define MPI_NO_OP       ((MPI_Op)0x03d)

typedef struct MPI_ABI_Comm* MPI_Comm;
#define MPI_COMM_NULL   ((MPI_Comm)0x100)
#define MPI_COMM_WORLD  ((MPI_Comm)0x101)
#define MPI_COMM_SELF   ((MPI_Comm)0x102)

typedef struct MPI_ABI_Group* MPI_Group;
#define MPI_GROUP_NULL  ((MPI_Group)0x108)
#define MPI_GROUP_EMPTY ((MPI_Group)0x109)

typedef struct MPI_ABI_Win* MPI_Win;
#define MPI_WIN_NULL    ((MPI_Win)0x110)

typedef struct MPI_ABI_File* MPI_File;
#define MPI_FILE_NULL   ((MPI_File)0x118)

typedef struct MPI_ABI_Session* MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0x120)

typedef struct MPI_ABI_Message* MPI_Message;
#define MPI_MESSAGE_NULL    ((MPI_Message)0x128)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x129)

typedef struct MPI_ABI_Info* MPI_Info;
#define MPI_INFO_NULL   ((MPI_Info)0x130)
#define MPI_INFO_ENV    ((MPI_Info)0x131)

typedef struct MPI_ABI_Errhandler* MPI_Errhandler;
#define MPI_ERRHANDLER_NULL  ((MPI_Errhandler)0x140)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x141)
#define MPI_ERRORS_RETURN    ((MPI_Errhandler)0x142)
#define MPI_ERRORS_ABORT     ((MPI_Errhandler)0x143)

typedef struct MPI_ABI_Request* MPI_Request;
#define MPI_REQUEST_NULL ((MPI_Request)0x180)

typedef struct MPI_ABI_Datatype* MPI_Datatype;
#define MPI_DATATYPE_NULL           ((MPI_Datatype)0x200)
#define MPI_AINT                    ((MPI_Datatype)0x201)
#define MPI_COUNT                   ((MPI_Datatype)0x202)
#define MPI_OFFSET                  ((MPI_Datatype)0x203)
#define MPI_PACKED                  ((MPI_Datatype)0x207)
#define MPI_SHORT                   ((MPI_Datatype)0x208)
#define MPI_INT                     ((MPI_Datatype)0x209)
#define MPI_LONG                    ((MPI_Datatype)0x20a)
#define MPI_LONG_LONG               ((MPI_Datatype)0x20b)
#define MPI_LONG_LONG_INT           MPI_LONG_LONG
#define MPI_UNSIGNED_SHORT          ((MPI_Datatype)0x20c)
#define MPI_UNSIGNED                ((MPI_Datatype)0x20d)
#define MPI_UNSIGNED_LONG           ((MPI_Datatype)0x20e)
#define MPI_UNSIGNED_LONG_LONG      ((MPI_Datatype)0x20f)
#define MPI_FLOAT                   ((MPI_Datatype)0x210)
#define MPI_C_FLOAT_COMPLEX         ((MPI_Datatype)0x212)
#define MPI_C_COMPLEX               MPI_C_FLOAT_COMPLEX
#define MPI_CXX_FLOAT_COMPLEX       ((MPI_Datatype)0x213)
#define MPI_DOUBLE                  ((MPI_Datatype)0x214)
#define MPI_C_DOUBLE_COMPLEX        ((MPI_Datatype)0x216)
#define MPI_CXX_DOUBLE_COMPLEX      ((MPI_Datatype)0x217)
#define MPI_LOGICAL                 ((MPI_Datatype)0x218)
#define MPI_INTEGER                 ((MPI_Datatype)0x219)
#define MPI_REAL                    ((MPI_Datatype)0x21a)
#define MPI_COMPLEX                 ((MPI_Datatype)0x21b)
#define MPI_DOUBLE_PRECISION        ((MPI_Datatype)0x21c)
#define MPI_DOUBLE_COMPLEX          ((MPI_Datatype)0x21d)
#define MPI_LONG_DOUBLE             ((MPI_Datatype)0x220)
#define MPI_C_LONG_DOUBLE_COMPLEX   ((MPI_Datatype)0x224)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x225)
#define MPI_FLOAT_INT               ((MPI_Datatype)0x228)
#define MPI_DOUBLE_INT              ((MPI_Datatype)0x229)
#define MPI_LONG_INT                ((MPI_Datatype)0x22a)
#define MPI_2INT                    ((MPI_Datatype)0x22b)
#define MPI_SHORT_INT               ((MPI_Datatype)0x22c)
#define MPI_LONG_DOUBLE_INT         ((MPI_Datatype)0x22d)
#define MPI_2REAL                   ((MPI_Datatype)0x230)
#define MPI_2DOUBLE_PRECISION       ((MPI_Datatype)0x231)
#define MPI_2INTEGER                ((MPI_Datatype)0x232)
#define MPI_C_BOOL                  ((MPI_Datatype)0x238)
#define MPI_CXX_BOOL                ((MPI_Datatype)0x239)
#define MPI_WCHAR                   ((MPI_Datatype)0x23c)
#define MPI_INT8_T                  ((MPI_Datatype)0x240)
#define MPI_UINT8_T                 ((MPI_Datatype)0x241)
#define MPI_CHAR                    ((MPI_Datatype)0x243)
#define MPI_SIGNED_CHAR             ((MPI_Datatype)0x244)
#define MPI_UNSIGNED_CHAR           ((MPI_Datatype)0x245)
#define MPI_BYTE                    ((MPI_Datatype)0x247)
#define MPI_INT16_T                 ((MPI_Datatype)0x248)
#define MPI_UINT16_T                ((MPI_Datatype)0x249)
#define MPI_INT32_T                 ((MPI_Datatype)0x250)
#define MPI_UINT32_T                ((MPI_Datatype)0x251)
#define MPI_INT64_T                 ((MPI_Datatype)0x258)
#define MPI_UINT64_T                ((MPI_Datatype)0x259)
#define MPI_LOGICAL1                ((MPI_Datatype)0x2c0)
#define MPI_INTEGER1                ((MPI_Datatype)0x2c1)
#define MPI_CHARACTER               ((MPI_Datatype)0x2c3)
#define MPI_LOGICAL2                ((MPI_Datatype)0x2c8)
#define MPI_INTEGER2                ((MPI_Datatype)0x2c9)
#define MPI_REAL2                   ((MPI_Datatype)0x2ca)
#define MPI_LOGICAL4                ((MPI_Datatype)0x2d0)
#define MPI_INTEGER4                ((MPI_Datatype)0x2d1)
#define MPI_REAL4                   ((MPI_Datatype)0x2d2)
#define MPI_COMPLEX4                ((MPI_Datatype)0x2d3)
#define MPI_LOGICAL8                ((MPI_Datatype)0x2d8)
#define MPI_INTEGER8                ((MPI_Datatype)0x2d9)
#define MPI_REAL8                   ((MPI_Datatype)0x2da)
#define MPI_COMPLEX8                ((MPI_Datatype)0x2db)
#define MPI_LOGICAL16               ((MPI_Datatype)0x2e0)
#define MPI_INTEGER16               ((MPI_Datatype)0x2e1)
#define MPI_REAL16                  ((MPI_Datatype)0x2e2)
#define MPI_COMPLEX16               ((MPI_Datatype)0x2e3)
#define MPI_COMPLEX32               ((MPI_Datatype)0x2eb)
/* Bound markers of the deprecated MPI-1 type API (removed in MPI-3.0, still
 * used by old tests); not part of the standard ABI, so HMPI-specific values. */
#define MPI_LB                      ((MPI_Datatype)0x2f0)
#define MPI_UB                      ((MPI_Datatype)0x2f1)

typedef int MPI_Fint;

/* Error classes (MPI 5.0 ABI values). */
enum {
    MPI_SUCCESS                   = 0,
    MPI_ERR_BUFFER                = 1,
    MPI_ERR_COUNT                 = 2,
    MPI_ERR_TYPE                  = 3,
    MPI_ERR_TAG                   = 4,
    MPI_ERR_COMM                  = 5,
    MPI_ERR_RANK                  = 6,
    MPI_ERR_REQUEST               = 7,
    MPI_ERR_ROOT                  = 8,
    MPI_ERR_GROUP                 = 9,
    MPI_ERR_OP                    = 10,
    MPI_ERR_TOPOLOGY              = 11,
    MPI_ERR_DIMS                  = 12,
    MPI_ERR_ARG                   = 13,
    MPI_ERR_UNKNOWN               = 14,
    MPI_ERR_TRUNCATE              = 15,
    MPI_ERR_OTHER                 = 16,
    MPI_ERR_INTERN                = 17,
    MPI_ERR_PENDING               = 18,
    MPI_ERR_IN_STATUS             = 19,
    MPI_ERR_ACCESS                = 20,
    MPI_ERR_AMODE                 = 21,
    MPI_ERR_ASSERT                = 22,
    MPI_ERR_BAD_FILE              = 23,
    MPI_ERR_BASE                  = 24,
    MPI_ERR_CONVERSION            = 25,
    MPI_ERR_DISP                  = 26,
    MPI_ERR_DUP_DATAREP           = 27,
    MPI_ERR_FILE_EXISTS           = 28,
    MPI_ERR_FILE_IN_USE           = 29,
    MPI_ERR_FILE                  = 30,
    MPI_ERR_INFO_KEY              = 31,
    MPI_ERR_INFO_NOKEY            = 32,
    MPI_ERR_INFO_VALUE            = 33,
    MPI_ERR_INFO                  = 34,
    MPI_ERR_IO                    = 35,
    MPI_ERR_KEYVAL                = 36,
    MPI_ERR_LOCKTYPE              = 37,
    MPI_ERR_NAME                  = 38,
    MPI_ERR_NO_MEM                = 39,
    MPI_ERR_NOT_SAME              = 40,
    MPI_ERR_NO_SPACE              = 41,
    MPI_ERR_NO_SUCH_FILE          = 42,
    MPI_ERR_PORT                  = 43,
    MPI_ERR_QUOTA                 = 44,
    MPI_ERR_READ_ONLY             = 45,
    MPI_ERR_RMA_ATTACH            = 46,
    MPI_ERR_RMA_CONFLICT          = 47,
    MPI_ERR_RMA_RANGE             = 48,
    MPI_ERR_RMA_SHARED            = 49,
    MPI_ERR_RMA_SYNC              = 50,
    MPI_ERR_SERVICE               = 51,
    MPI_ERR_SIZE                  = 52,
    MPI_ERR_SPAWN                 = 53,
    MPI_ERR_UNSUPPORTED_DATAREP   = 54,
    MPI_ERR_UNSUPPORTED_OPERATION = 55,
    MPI_ERR_WIN                   = 56,
    MPI_ERR_RMA_FLAVOR            = 57,
    MPI_ERR_PROC_ABORTED          = 58,
    MPI_ERR_VALUE_TOO_LARGE       = 59,
    MPI_ERR_SESSION               = 60,
    MPI_ERR_ERRHANDLER            = 61,
    MPI_ERR_LASTCODE              = 0x3fff
};

/* Buffer address constants. */
#define MPI_BOTTOM           ((void*)0)
#define MPI_IN_PLACE         ((void*)1)
#define MPI_BUFFER_AUTOMATIC ((void*)2)

/* Ignored / empty constants. */
#define MPI_ARGV_NULL       ((char**)0)
#define MPI_ARGVS_NULL      ((char***)0)
#define MPI_ERRCODES_IGNORE ((int*)0)
#define MPI_STATUS_IGNORE   ((MPI_Status*)0)
#define MPI_STATUSES_IGNORE ((MPI_Status*)0)
#define MPI_UNWEIGHTED      ((int*)10)
#define MPI_WEIGHTS_EMPTY   ((int*)11)

/* String sizes. */
#define MPI_MAX_DATAREP_STRING          128
#define MPI_MAX_ERROR_STRING            512
#define MPI_MAX_INFO_KEY                256
#define MPI_MAX_INFO_VAL               1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME             128
#define MPI_MAX_PORT_NAME              1024
#define MPI_MAX_PROCESSOR_NAME          256

/* Per-message space MPI_Bsend needs in an attached buffer beyond the data. */
#define MPI_BSEND_OVERHEAD 512

enum {
    MPI_ANY_SOURCE = -1,
    MPI_ANY_TAG    = -2,
    MPI_PROC_NULL  = -3,
    MPI_ROOT       = -4,
    MPI_UNDEFINED  = -32766
};

enum {
    MPI_THREAD_SINGLE     = 0,
    MPI_THREAD_FUNNELED   = 1024,
    MPI_THREAD_SERIALIZED = 2048,
    MPI_THREAD_MULTIPLE   = 4096
};

enum {
    MPI_IDENT     = 201,
    MPI_CONGRUENT = 202,
    MPI_SIMILAR   = 203,
    MPI_UNEQUAL   = 204
};


enum {
    /* Array datatype order and distribution. */
    MPI_ORDER_C              = 0xC,
    MPI_ORDER_FORTRAN        = 0xF,
    MPI_DISTRIBUTE_NONE      = 16,
    MPI_DISTRIBUTE_BLOCK     = 17,
    MPI_DISTRIBUTE_CYCLIC    = 18,
    MPI_DISTRIBUTE_DFLT_DARG = 19,

    /* Datatype decoding combiners. */
    MPI_COMBINER_NAMED          = 101,
    MPI_COMBINER_DUP            = 102,
    MPI_COMBINER_CONTIGUOUS     = 103,
    MPI_COMBINER_VECTOR         = 104,
    MPI_COMBINER_HVECTOR        = 105,
    MPI_COMBINER_INDEXED        = 106,
    MPI_COMBINER_HINDEXED       = 107,
    MPI_COMBINER_INDEXED_BLOCK  = 108,
    MPI_COMBINER_HINDEXED_BLOCK = 109,
    MPI_COMBINER_STRUCT         = 110,
    MPI_COMBINER_SUBARRAY       = 111,
    MPI_COMBINER_DARRAY         = 112,
    MPI_COMBINER_F90_INTEGER    = 113,
    MPI_COMBINER_F90_REAL       = 114,
    MPI_COMBINER_F90_COMPLEX    = 115,
    MPI_COMBINER_RESIZED        = 116,
    MPI_COMBINER_VALUE_INDEX    = 117,
    /* Deprecated constructors keep their own combiners (MPI 2.2). */
    MPI_COMBINER_HVECTOR_INTEGER  = MPI_COMBINER_HVECTOR,
    MPI_COMBINER_HINDEXED_INTEGER = MPI_COMBINER_HINDEXED,
    MPI_COMBINER_STRUCT_INTEGER   = MPI_COMBINER_STRUCT,

    /* Type classes for MPI_Type_match_size. */
    MPI_TYPECLASS_INTEGER = 192,
    MPI_TYPECLASS_REAL    = 193,
    MPI_TYPECLASS_COMPLEX = 194,

    /* Virtual topology types. */
    MPI_CART       = 211,
    MPI_GRAPH      = 212,
    MPI_DIST_GRAPH = 213,

    /* Communicator split types. HMPI_COMM_TYPE_* split by the hardware
     * level they name (docs/communicators.md). */
    MPI_COMM_TYPE_SHARED          = 221,
    MPI_COMM_TYPE_HW_UNGUIDED     = 222,
    MPI_COMM_TYPE_HW_GUIDED       = 223,
    MPI_COMM_TYPE_RESOURCE_GUIDED = 224,
    HMPI_COMM_TYPE_NUMA           = 0x1001,
    HMPI_COMM_TYPE_SOCKET         = 0x1002,
    HMPI_COMM_TYPE_L3CACHE        = 0x1003
};

/* Predefined attribute keys. */
enum {
    MPI_KEYVAL_INVALID  = 0,
    MPI_TAG_UB          = 501,
    MPI_IO              = 502,
    MPI_HOST            = 503,
    MPI_WTIME_IS_GLOBAL = 504,
    MPI_UNIVERSE_SIZE   = 505,
    MPI_APPNUM          = 506,
    MPI_LASTUSEDCODE    = 507
};

typedef void (MPI_Comm_errhandler_function)(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Comm_errhandler_function MPI_Handler_function; /* deprecated */
typedef void (MPI_Win_errhandler_function)(MPI_Win *win, int *error_code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

typedef void (MPI_User_function)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);

typedef int (MPI_Grequest_query_function)(void *extra_state, MPI_Status *status);
typedef int (MPI_Grequest_free_function)(void *extra_state);
typedef int (MPI_Grequest_cancel_function)(void *extra_state, int complete);

typedef int (MPI_Copy_function)(MPI_Comm comm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag); /* deprecated */
typedef int (MPI_Delete_function)(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state); /* deprecated */
typedef int (MPI_Comm_copy_attr_function)(MPI_Comm comm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int (MPI_Comm_delete_attr_function)(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef int (MPI_Type_copy_attr_function)(MPI_Datatype datatype, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int (MPI_Type_delete_attr_function)(MPI_Datatype datatype, int keyval, void *attribute_val, void *extra_state);
typedef int (MPI_Win_copy_attr_function)(MPI_Win win, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int (MPI_Win_delete_attr_function)(MPI_Win win, int keyval, void *attribute_val, void *extra_state);

/* Predefined attribute callbacks (standard ABI values). */
#define MPI_NULL_COPY_FN        ((MPI_Copy_function*)0x0)
#define MPI_DUP_FN              ((MPI_Copy_function*)0x1)
#define MPI_NULL_DELETE_FN      ((MPI_Delete_function*)0x0)
#define MPI_COMM_NULL_COPY_FN   ((MPI_Comm_copy_attr_function*)0x0)
#define MPI_COMM_DUP_FN         ((MPI_Comm_copy_attr_function*)0x1)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function*)0x0)
#define MPI_TYPE_NULL_COPY_FN   ((MPI_Type_copy_attr_function*)0x0)
#define MPI_TYPE_DUP_FN         ((MPI_Type_copy_attr_function*)0x1)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function*)0x0)
#define MPI_WIN_NULL_COPY_FN    ((MPI_Win_copy_attr_function*)0x0)
#define MPI_WIN_DUP_FN          ((MPI_Win_copy_attr_function*)0x1)
#define MPI_WIN_NULL_DELETE_FN  ((MPI_Win_delete_attr_function*)0x0)

/*
 * The functions. Each is declared twice, as MPI_X and PMPI_X, from one list
 * so the two can never disagree.
 */
#define HMPI_DECLARE_API(ret, name, params) ret MPI_##name params; ret PMPI_##name params;

HMPI_DECLARE_API(int, Init, (int *argc, char ***argv))
HMPI_DECLARE_API(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
HMPI_DECLARE_API(int, Finalize, (void))
HMPI_DECLARE_API(int, Initialized, (int *flag))
HMPI_DECLARE_API(int, Finalized, (int *flag))
HMPI_DECLARE_API(int, Query_thread, (int *provided))
HMPI_DECLARE_API(int, Is_thread_main, (int *flag))
HMPI_DECLARE_API(int, Abort, (MPI_Comm comm, int errorcode))
HMPI_DECLARE_API(double, Wtime, (void))
HMPI_DECLARE_API(double, Wtick, (void))
HMPI_DECLARE_API(int, Get_processor_name, (char *name, int *resultlen))
HMPI_DECLARE_API(int, Get_version, (int *version, int *subversion))
HMPI_DECLARE_API(int, Get_library_version, (char *version, int *resultlen))
HMPI_DECLARE_API(int, Error_string, (int errorcode, char *string, int *resultlen))
HMPI_DECLARE_API(int, Error_class, (int errorcode, int *errorclass))

HMPI_DECLARE_API(int, Comm_size, (MPI_Comm comm, int *size))
HMPI_DECLARE_API(int, Comm_rank, (MPI_Comm comm, int *rank))
HMPI_DECLARE_API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
HMPI_DECLARE_API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
HMPI_DECLARE_API(int, Errhandler_free, (MPI_Errhandler *errhandler))
HMPI_DECLARE_API(int, Type_size, (MPI_Datatype datatype, int *size))

HMPI_DECLARE_API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
HMPI_DECLARE_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
HMPI_DECLARE_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
HMPI_DECLARE_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
HMPI_DECLARE_API(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
HMPI_DECLARE_API(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Start, (MPI_Request *request))
HMPI_DECLARE_API(int, Startall, (int count, MPI_Request array_of_requests[]))
HMPI_DECLARE_API(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
HMPI_DECLARE_API(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
HMPI_DECLARE_API(int, Buffer_attach, (void *buffer, int size))
HMPI_DECLARE_API(int, Buffer_detach, (void *buffer_addr, int *size))

HMPI_DECLARE_API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
HMPI_DECLARE_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
HMPI_DECLARE_API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
HMPI_DECLARE_API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status))
HMPI_DECLARE_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
HMPI_DECLARE_API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))

HMPI_DECLARE_API(int, Wait, (MPI_Request *request, MPI_Status *status))
HMPI_DECLARE_API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
HMPI_DECLARE_API(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]))
HMPI_DECLARE_API(int, Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]))
HMPI_DECLARE_API(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
HMPI_DECLARE_API(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
HMPI_DECLARE_API(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]))
HMPI_DECLARE_API(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]))
HMPI_DECLARE_API(int, Request_free, (MPI_Request *request))
HMPI_DECLARE_API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
HMPI_DECLARE_API(int, Cancel, (MPI_Request *request))
HMPI_DECLARE_API(int, Test_cancelled, (const MPI_Status *status, int *flag))
HMPI_DECLARE_API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
HMPI_DECLARE_API(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
HMPI_DECLARE_API(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))

/* Datatypes. */
HMPI_DECLARE_API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
HMPI_DECLARE_API(int, Type_commit, (MPI_Datatype *datatype))
HMPI_DECLARE_API(int, Type_free, (MPI_Datatype *datatype))
HMPI_DECLARE_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
HMPI_DECLARE_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
HMPI_DECLARE_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
HMPI_DECLARE_API(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
HMPI_DECLARE_API(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
HMPI_DECLARE_API(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
HMPI_DECLARE_API(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
HMPI_DECLARE_API(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
HMPI_DECLARE_API(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner))
HMPI_DECLARE_API(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
HMPI_DECLARE_API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
HMPI_DECLARE_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
HMPI_DECLARE_API(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
HMPI_DECLARE_API(int, Get_address, (const void *location, MPI_Aint *address))
HMPI_DECLARE_API(int, Address, (void *location, MPI_Aint *address))
HMPI_DECLARE_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
HMPI_DECLARE_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
HMPI_DECLARE_API(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position, MPI_Comm comm))
HMPI_DECLARE_API(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype, MPI_Comm comm))
HMPI_DECLARE_API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
HMPI_DECLARE_API(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position))
HMPI_DECLARE_API(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype))
HMPI_DECLARE_API(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size))
HMPI_DECLARE_API(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
HMPI_DECLARE_API(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
HMPI_DECLARE_API(int, Status_set_cancelled, (MPI_Status *status, int flag))

/* Reduction operations. */
HMPI_DECLARE_API(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
HMPI_DECLARE_API(int, Op_free, (MPI_Op *op))
HMPI_DECLARE_API(int, Op_commutative, (MPI_Op op, int *commute))
HMPI_DECLARE_API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))

/* Groups. */
HMPI_DECLARE_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
HMPI_DECLARE_API(int, Group_size, (MPI_Group group, int *size))
HMPI_DECLARE_API(int, Group_rank, (MPI_Group group, int *rank))
HMPI_DECLARE_API(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
HMPI_DECLARE_API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
HMPI_DECLARE_API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
HMPI_DECLARE_API(int, Group_free, (MPI_Group *group))

/* Communicators. */
HMPI_DECLARE_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
HMPI_DECLARE_API(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Comm_free, (MPI_Comm *comm))
HMPI_DECLARE_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
HMPI_DECLARE_API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
HMPI_DECLARE_API(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
HMPI_DECLARE_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
HMPI_DECLARE_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
HMPI_DECLARE_API(int, Comm_test_inter, (MPI_Comm comm, int *flag))
HMPI_DECLARE_API(int, Comm_remote_size, (MPI_Comm comm, int *size))
HMPI_DECLARE_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
HMPI_DECLARE_API(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm))
HMPI_DECLARE_API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))

/* Attributes. */
HMPI_DECLARE_API(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state))
HMPI_DECLARE_API(int, Comm_free_keyval, (int *comm_keyval))
HMPI_DECLARE_API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
HMPI_DECLARE_API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
HMPI_DECLARE_API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
HMPI_DECLARE_API(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state))
HMPI_DECLARE_API(int, Type_free_keyval, (int *type_keyval))
HMPI_DECLARE_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
HMPI_DECLARE_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
HMPI_DECLARE_API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
HMPI_DECLARE_API(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state))
HMPI_DECLARE_API(int, Win_free_keyval, (int *win_keyval))
HMPI_DECLARE_API(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state))
HMPI_DECLARE_API(int, Keyval_free, (int *keyval))
HMPI_DECLARE_API(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
HMPI_DECLARE_API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
HMPI_DECLARE_API(int, Attr_delete, (MPI_Comm comm, int keyval))

/* Info objects. */
HMPI_DECLARE_API(int, Info_create, (MPI_Info *info))
HMPI_DECLARE_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
HMPI_DECLARE_API(int, Info_set, (MPI_Info info, const char *key, const char *value))
HMPI_DECLARE_API(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
HMPI_DECLARE_API(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
HMPI_DECLARE_API(int, Info_delete, (MPI_Info info, const char *key))
HMPI_DECLARE_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
HMPI_DECLARE_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
HMPI_DECLARE_API(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
HMPI_DECLARE_API(int, Info_free, (MPI_Info *info))

/* Error handlers, classes, codes and strings. */
HMPI_DECLARE_API(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler))
HMPI_DECLARE_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
HMPI_DECLARE_API(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
HMPI_DECLARE_API(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
HMPI_DECLARE_API(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))
HMPI_DECLARE_API(int, Add_error_class, (int *errorclass))
HMPI_DECLARE_API(int, Add_error_code, (int errorclass, int *errorcode))
HMPI_DECLARE_API(int, Add_error_string, (int errorcode, const char *string))

/* Topologies. */
HMPI_DECLARE_API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart))
HMPI_DECLARE_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
HMPI_DECLARE_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
HMPI_DECLARE_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
HMPI_DECLARE_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
HMPI_DECLARE_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
HMPI_DECLARE_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
HMPI_DECLARE_API(int, Cartdim_get, (MPI_Comm comm, int *ndims))
HMPI_DECLARE_API(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph))
HMPI_DECLARE_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
HMPI_DECLARE_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
HMPI_DECLARE_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
HMPI_DECLARE_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
HMPI_DECLARE_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
HMPI_DECLARE_API(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[], const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
HMPI_DECLARE_API(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree, const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
HMPI_DECLARE_API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree, int destinations[], int destweights[]))
HMPI_DECLARE_API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
HMPI_DECLARE_API(int, Dims_create, (int nnodes, int ndims, int dims[]))
HMPI_DECLARE_API(int, Topo_test, (MPI_Comm comm, int *status))

/* Memory, generalized requests, handle conversion, profiling control. */
HMPI_DECLARE_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
HMPI_DECLARE_API(int, Free_mem, (void *base))
HMPI_DECLARE_API(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request))
HMPI_DECLARE_API(int, Grequest_complete, (MPI_Request request))
HMPI_DECLARE_API(MPI_Fint, Message_c2f, (MPI_Message message))
HMPI_DECLARE_API(MPI_Message, Message_f2c, (MPI_Fint message))
HMPI_DECLARE_API(int, Pcontrol, (const int level, ...))

/* Collective operations (MPI 3.1, chapter 5), blocking and nonblocking. */
HMPI_DECLARE_API(int, Barrier, (MPI_Comm comm))
HMPI_DECLARE_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
HMPI_DECLARE_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
HMPI_DECLARE_API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
HMPI_DECLARE_API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
HMPI_DECLARE_API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
HMPI_DECLARE_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
HMPI_DECLARE_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
HMPI_DECLARE_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
HMPI_DECLARE_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
HMPI_DECLARE_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
HMPI_DECLARE_API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
HMPI_DECLARE_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
HMPI_DECLARE_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))

/* Neighborhood collectives on process topologies (MPI 3.1, 7.6-7.7). */
HMPI_DECLARE_API(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
HMPI_DECLARE_API(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
HMPI_DECLARE_API(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
HMPI_DECLARE_API(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))

#undef HMPI_DECLARE_API

#if defined(__cplusplus)
}
#endif

#endif /* HMPI_MPI_H */
