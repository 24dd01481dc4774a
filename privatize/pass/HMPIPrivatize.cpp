// HMPIPrivatize: the LLVM pass (a clang-14 pass plugin) that gives every MPI rank its own copy of
// the program's mutable globals and statics. Ranks are threads (later fibers) of one process, so
// without it they would share them. See docs/privatization.md for the whole design; in short:
//
//  * Each privatized global stays where it is, as the *template*: initialized ones go to the
//    section hmpi_priv_data, zero-initialized ones to hmpi_priv_bss (via the "data-section" /
//    "bss-section" attributes, which keep the bss classification: a zero array costs no file
//    space). At rank start the runtime (privatize/runtime/hmpi_priv_rt.c) copies both sections
//    and stores copy-minus-template, the rank's *deltas*, in the initial-exec thread-local
//    __hmpi_priv_tls, which the runtime sets on every thread acting for the rank.
//  * Every use of a privatized global in a function becomes template address + delta, computed
//    once in the function's entry block (a function always runs for one rank).
//  * Globals that may be defined elsewhere (extern declarations, weak/linkonce/common
//    definitions, aliases) get a branch-free range check against this link unit's sections:
//    in hmpi_priv_data -> data delta, in hmpi_priv_bss -> bss delta, else shared (libc's stdout).
//  * Constant globals whose initializers hold addresses of privatized globals (a getopt option
//    table with flag pointers) are privatized too, and every privatized global whose initializer
//    holds such addresses gets a per-rank fix-up store, run before any constructor.
//  * llvm.global_ctors / llvm.global_dtors move into registries (sections hmpi_priv_ctors /
//    hmpi_priv_dtors, entries kept in their constructor's comdat) that the runtime runs once per
//    rank on that rank's thread.
//  * Calls of exit, atexit, __cxa_atexit, rand, srand, random, srandom, strtok, getopt* and uses
//    of optind/optarg/opterr/optopt are redirected to the runtime's per-rank versions.
//  * A marker symbol (__hmpi_priv_marker) tells the wrappers' link check which objects went
//    through the pass.
//  * Objects compiled for a shared library (-fPIC without -fPIE) cannot use the program's two
//    deltas: a library's sections are elsewhere. Their functions read the library's deltas from
//    the rank's module table (__hmpi_priv_tls[2] points at it) at the library's own byte offset
//    __hmpi_priv_module_offset, which the library's registration object (hmpi_priv_lib.c,
//    linked in by `hmpicc -shared`) receives when it registers the library's sections with the
//    runtime at load time. On a thread acting for no rank the table pointer is null and the
//    deltas are read from __hmpi_priv_module_zero (all zero: the templates).
// Opt-out: variables annotated "hmpi.shared" (include/hmpi_privatize.h: HMPI_SHARED) stay shared.
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace {

constexpr const char* kDataSection = "hmpi_priv_data";
constexpr const char* kBssSection = "hmpi_priv_bss";
constexpr const char* kCtorSection = "hmpi_priv_ctors";
constexpr const char* kDtorSection = "hmpi_priv_dtors";
constexpr const char* kMarkerSection = "hmpi_priv_marker";
constexpr const char* kTlsName = "__hmpi_priv_tls";
constexpr const char* kRuntimeEntry = "__hmpi_priv_rank_entry";  // defined only by the runtime module
constexpr unsigned kFixupPriority = 0;  // below every user priority (101+) and the default 65535

// How a function reaches the rank's copy of a global.
enum class Access { DirectData, DirectBss, Checked };

// libc functions and variables whose state is per process; each rank gets its own version from
// the runtime (hmpi_priv_rt.c), as it would as a process.
const char* const kRedirectedFunctions[] = {"exit",   "atexit",  "__cxa_atexit", "rand",        "srand",
                                            "random", "srandom", "strtok",       "getopt",      "getopt_long",
                                            "getopt_long_only"};
const char* const kRedirectedVariables[] = {"optind", "optarg", "opterr", "optopt"};

class Privatizer {
public:
    explicit Privatizer(Module& m)
        : M(m), Ctx(m.getContext()), I8(Type::getInt8Ty(Ctx)), I32(Type::getInt32Ty(Ctx)),
          I64(Type::getInt64Ty(Ctx)), I8P(Type::getInt8PtrTy(Ctx)) {}

    bool run() {
        if (M.getNamedGlobal("__hmpi_priv_marker")) return false;  // already done (e.g. -save-temps)
        isRuntime = M.getFunction(kRuntimeEntry) && !M.getFunction(kRuntimeEntry)->isDeclaration();
        isLibrary = M.getPICLevel() != PICLevel::NotPIC && M.getPIELevel() == PIELevel::Default;
        collectOptOuts();
        if (!isRuntime) redirectLibc();
        classify();
        placeTemplates();
        buildFixups();
        moveStructors("llvm.global_ctors", kCtorSection);
        moveStructors("llvm.global_dtors", kDtorSection);
        rewriteFunctions();
        emitMarkerAndAnchors();
        return true;
    }

private:
    Module& M;
    LLVMContext& Ctx;
    Type *I8, *I32, *I64;
    PointerType* I8P;
    bool isRuntime = false;
    bool isLibrary = false;  // -fPIC, not -fPIE: deltas come from the rank's module table
    SmallPtrSet<const GlobalValue*, 8> optedOut;
    DenseMap<const GlobalValue*, Access> access;  // every global a function must translate
    SetVector<GlobalVariable*> privatized;        // defined here, moved into our sections
    DenseMap<const Constant*, bool> mentionsMemo;
    GlobalVariable* tls = nullptr;
    GlobalVariable *dataStart = nullptr, *dataStop = nullptr, *bssStart = nullptr, *bssStop = nullptr;
    std::vector<GlobalValue*> registryEntries;  // kept alive through llvm.compiler.used

    // ---- what is privatized ---------------------------------------------------------------

    void collectOptOuts() {
        GlobalVariable* ann = M.getNamedGlobal("llvm.global.annotations");
        if (!ann || !ann->hasInitializer()) return;
        auto* arr = dyn_cast<ConstantArray>(ann->getInitializer());
        if (!arr) return;
        for (Value* op : arr->operands()) {
            auto* entry = dyn_cast<ConstantStruct>(op);
            if (!entry || entry->getNumOperands() < 2) continue;
            auto* target = dyn_cast<GlobalValue>(entry->getOperand(0)->stripPointerCasts());
            auto* strVar = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
            if (!target || !strVar || !strVar->hasInitializer()) continue;
            auto* str = dyn_cast<ConstantDataSequential>(strVar->getInitializer());
            if (str && str->isCString() && str->getAsCString() == "hmpi.shared") optedOut.insert(target);
        }
    }

    bool excluded(const GlobalVariable* gv) const {
        StringRef n = gv->getName();
        return gv->isThreadLocal() || gv->hasSection() || optedOut.count(gv) || n.startswith("llvm.") ||
               n.startswith("__hmpi_priv_") || n.startswith("__start_") || n.startswith("__stop_") ||
               n.startswith("_ZTV") || n.startswith("_ZTI") || n.startswith("_ZTS") || n.startswith("_ZTT") ||
               n == "__dso_handle";
    }

    // Whether a definition here may be replaced by another one at link time (so its address
    // may not be in our section).
    static bool mayBeReplaced(const GlobalVariable* gv) {
        return !(gv->hasLocalLinkage() || gv->hasExternalLinkage());
    }

    // Whether C holds the address of a global that functions must translate.
    bool mentionsTranslated(const Constant* c) {
        if (auto* gv = dyn_cast<GlobalValue>(c)) return access.count(gv) != 0;
        if (isa<ConstantData>(c)) return false;
        auto it = mentionsMemo.find(c);
        if (it != mentionsMemo.end()) return it->second;
        bool result = false;
        for (const Use& op : c->operands())
            if (auto* oc = dyn_cast<Constant>(op.get()); oc && mentionsTranslated(oc)) {
                result = true;
                break;
            }
        mentionsMemo[c] = result;
        return result;
    }

    void classify() {
        for (GlobalVariable& gv : M.globals()) {
            if (excluded(&gv)) continue;
            if (gv.isDeclaration() || gv.hasAvailableExternallyLinkage()) {
                access[&gv] = Access::Checked;
            } else if (!gv.isConstant()) {
                privatized.insert(&gv);
            }
        }
        for (GlobalVariable* gv : privatized) access[gv] = Access::Checked;  // refined below
        // Constants holding addresses of privatized globals must be per rank too (each rank's
        // table must point at its own variables): repeat until nothing changes.
        for (bool changed = true; changed;) {
            changed = false;
            mentionsMemo.clear();
            for (GlobalVariable& gv : M.globals()) {
                if (excluded(&gv) || gv.isDeclaration() || gv.hasAvailableExternallyLinkage() || !gv.isConstant() ||
                    privatized.count(&gv))
                    continue;
                if (mentionsTranslated(gv.getInitializer())) {
                    gv.setConstant(false);
                    privatized.insert(&gv);
                    access[&gv] = Access::Checked;
                    changed = true;
                }
            }
        }
        // Aliases of translated globals are reached through the range check.
        for (GlobalAlias& ga : M.aliases()) {
            auto* base = dyn_cast_or_null<GlobalVariable>(ga.getAliaseeObject());
            if (base && access.count(base)) access[&ga] = Access::Checked;
        }
        mentionsMemo.clear();
    }

    // Mirrors LLVM 14's isSuitableForBSS / getKindForGlobal: which of our two sections the code
    // generator will put the global in. The delta a function uses must match.
    static bool isNullOrUndef(const Constant* c) {
        if (c->isNullValue() || isa<UndefValue>(c)) return true;
        if (!isa<ConstantAggregate>(c)) return false;
        for (const Value* op : c->operand_values())
            if (!isNullOrUndef(cast<Constant>(op))) return false;
        return true;
    }

    void placeTemplates() {
        for (GlobalVariable* gv : privatized) {
            // -fcommon: a common symbol has no section; a weak zero definition merges the same
            // way across translation units and can live in ours.
            if (gv->hasCommonLinkage()) gv->setLinkage(GlobalValue::WeakAnyLinkage);
            gv->addAttribute("data-section", kDataSection);
            gv->addAttribute("bss-section", kBssSection);
            bool bss = isNullOrUndef(gv->getInitializer());
            if (!mayBeReplaced(gv)) access[gv] = bss ? Access::DirectBss : Access::DirectData;
        }
    }

    // ---- address initializers -------------------------------------------------------------

    // Each rank's copy starts as a byte copy of the template, so pointers in it point at the
    // template's globals: store the rank's addresses over them. The stores are plain IR with the
    // original constants; rewriteFunctions() then translates both sides.
    void buildFixups() {
        Function* fixup = nullptr;
        IRBuilder<> b(Ctx);
        for (GlobalVariable* gv : privatized) {
            if (!mentionsTranslated(gv->getInitializer())) continue;
            if (!fixup) {
                fixup = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false), GlobalValue::InternalLinkage,
                                         "__hmpi_priv_fixups", M);
                b.SetInsertPoint(BasicBlock::Create(Ctx, "entry", fixup));
            }
            SmallVector<Value*, 8> path{ConstantInt::get(I32, 0)};
            emitFixupStores(b, gv, gv->getInitializer(), path);
        }
        if (!fixup) return;
        b.CreateRetVoid();
        addRegistryEntry(kCtorSection, kFixupPriority, fixup, nullptr);
    }

    void emitFixupStores(IRBuilder<>& b, GlobalVariable* gv, Constant* c, SmallVectorImpl<Value*>& path) {
        if (!mentionsTranslated(c)) return;
        if (isa<ConstantAggregate>(c)) {
            for (unsigned i = 0; i < c->getNumOperands(); ++i) {
                path.push_back(ConstantInt::get(I32, i));
                emitFixupStores(b, gv, cast<Constant>(c->getOperand(i)), path);
                path.pop_back();
            }
            return;
        }
        Value* slot = b.CreateInBoundsGEP(gv->getValueType(), gv, path);
        b.CreateStore(c, slot);
    }

    // ---- constructors and destructors -----------------------------------------------------

    void addRegistryEntry(const char* section, unsigned priority, Constant* fn, Comdat* comdat) {
        StructType* ty = StructType::get(I32, I8P);
        Constant* init = ConstantStruct::get(ty, {ConstantInt::get(I32, priority), ConstantExpr::getBitCast(fn, I8P)});
        auto* entry = new GlobalVariable(M, ty, true, GlobalValue::PrivateLinkage, init, "__hmpi_priv_structor");
        entry->setSection(section);
        entry->setAlignment(Align(8));
        if (comdat) entry->setComdat(comdat);
        registryEntries.push_back(entry);
    }

    void moveStructors(const char* listName, const char* section) {
        GlobalVariable* list = M.getNamedGlobal(listName);
        if (!list) return;
        if (auto* arr = dyn_cast_or_null<ConstantArray>(list->getInitializer())) {
            for (Value* op : arr->operands()) {
                auto* entry = dyn_cast<ConstantStruct>(op);
                if (!entry) continue;
                auto* prio = dyn_cast<ConstantInt>(entry->getOperand(0));
                auto* fn = dyn_cast<Constant>(entry->getOperand(1));
                if (!prio || !fn || fn->isNullValue()) continue;
                // The entry must vanish with its constructor's comdat (template statics, inline
                // variables), or the link would refer to a discarded section.
                Comdat* comdat = nullptr;
                if (auto* f = dyn_cast<GlobalObject>(fn->stripPointerCasts())) comdat = f->getComdat();
                if (!comdat && entry->getNumOperands() > 2)
                    if (auto* key = dyn_cast<GlobalObject>(entry->getOperand(2)->stripPointerCasts()))
                        comdat = key->getComdat();
                addRegistryEntry(section, static_cast<unsigned>(prio->getZExtValue()), fn, comdat);
            }
        }
        list->eraseFromParent();
    }

    // ---- per-process libc state -----------------------------------------------------------

    void redirectLibc() {
        for (const char* name : kRedirectedFunctions) {
            Function* f = M.getFunction(name);
            if (!f || !f->isDeclaration()) continue;
            std::string target = std::string("__hmpi_") + StringRef(name).ltrim('_').str();
            if (Function* existing = M.getFunction(target)) {
                f->replaceAllUsesWith(ConstantExpr::getBitCast(existing, f->getType()));
                f->eraseFromParent();
            } else {
                f->setName(target);
            }
        }
        for (const char* name : kRedirectedVariables) {
            GlobalVariable* gv = M.getNamedGlobal(name);
            if (!gv || !gv->isDeclaration()) continue;
            std::string target = std::string("__hmpi_") + name;
            if (GlobalVariable* existing = M.getNamedGlobal(target)) {
                gv->replaceAllUsesWith(ConstantExpr::getBitCast(existing, gv->getType()));
                gv->eraseFromParent();
            } else {
                gv->setName(target);
            }
        }
    }

    // ---- rewriting accesses ---------------------------------------------------------------

    GlobalVariable* sectionBound(const char* name) {
        if (GlobalVariable* gv = M.getNamedGlobal(name)) return gv;
        auto* gv = new GlobalVariable(M, ArrayType::get(I8, 0), false, GlobalValue::ExternalLinkage, nullptr, name);
        gv->setVisibility(GlobalValue::HiddenVisibility);  // this link unit's own section
        return gv;
    }

    void declareRuntimeSymbols() {
        if (tls) return;
        tls = M.getNamedGlobal(kTlsName);
        if (!tls) {
            tls = new GlobalVariable(M, ArrayType::get(I64, 4), false, GlobalValue::ExternalLinkage, nullptr, kTlsName,
                                     nullptr, GlobalValue::InitialExecTLSModel);
        }
        dataStart = sectionBound("__start_hmpi_priv_data");
        dataStop = sectionBound("__stop_hmpi_priv_data");
        bssStart = sectionBound("__start_hmpi_priv_bss");
        bssStop = sectionBound("__stop_hmpi_priv_bss");
    }

    struct FunctionState {
        Instruction* entryPos = nullptr;
        Value* delta[2] = {nullptr, nullptr};
        DenseMap<const GlobalValue*, Value*> translated;
    };

    // Hidden symbols of this link unit (the library's registration object or, in a program,
    // the runtime): never privatized (their names start with __hmpi_priv_).
    GlobalVariable* hiddenI64(const char* name, unsigned count) {
        if (GlobalVariable* gv = M.getNamedGlobal(name)) return gv;
        Type* ty = count ? static_cast<Type*>(ArrayType::get(I64, count)) : I64;
        auto* gv = new GlobalVariable(M, ty, count != 0, GlobalValue::ExternalLinkage, nullptr, name);
        gv->setVisibility(GlobalValue::HiddenVisibility);
        return gv;
    }

    Value* deltaLoad(FunctionState& fs, unsigned which) {
        if (!fs.delta[which] && isLibrary) {
            // table = tls[2]; slot = table ? table + offset : zero; delta = slot[which]
            IRBuilder<> b(fs.entryPos);
            Value* field = b.CreateConstInBoundsGEP2_32(tls->getValueType(), tls, 0, 2);
            Value* table = b.CreateLoad(I64, field, "hmpi.table");
            Value* offset = b.CreateLoad(I64, hiddenI64("__hmpi_priv_module_offset", 0), "hmpi.offset");
            Value* zero = new PtrToIntInst(hiddenI64("__hmpi_priv_module_zero", 2), I64, "", fs.entryPos);
            Value* slot = b.CreateSelect(b.CreateICmpEQ(table, ConstantInt::get(I64, 0)), zero,
                                         b.CreateAdd(table, offset));
            slot = b.CreateAdd(slot, ConstantInt::get(I64, 8 * which));
            fs.delta[which] = b.CreateLoad(I64, b.CreateIntToPtr(slot, PointerType::getUnqual(I64)), "hmpi.delta");
        }
        if (!fs.delta[which]) {
            IRBuilder<> b(fs.entryPos);
            Value* field = b.CreateConstInBoundsGEP2_32(tls->getValueType(), tls, 0, which);
            fs.delta[which] = b.CreateLoad(I64, field, "hmpi.delta");
        }
        return fs.delta[which];
    }

    // The rank's address of `gv`, computed once in the entry block.
    Value* translate(FunctionState& fs, GlobalValue* gv) {
        auto it = fs.translated.find(gv);
        if (it != fs.translated.end()) return it->second;
        IRBuilder<> b(fs.entryPos);
        Value* delta;
        switch (access.lookup(gv)) {
            case Access::DirectData: delta = deltaLoad(fs, 0); break;
            case Access::DirectBss: delta = deltaLoad(fs, 1); break;
            case Access::Checked:
            default: {
                Value* dd = deltaLoad(fs, 0);
                Value* bd = deltaLoad(fs, 1);
                b.SetInsertPoint(fs.entryPos);
                // Instructions, not constant expressions: the code generator cannot fold a
                // difference of two symbols from different sections into one relocation.
                auto* addr = new PtrToIntInst(gv, I64, "hmpi.addr", fs.entryPos);
                auto inRange = [&](GlobalVariable* start, GlobalVariable* stop) {
                    auto* s = new PtrToIntInst(start, I64, "", fs.entryPos);
                    auto* e = new PtrToIntInst(stop, I64, "", fs.entryPos);
                    Value* off = b.CreateSub(addr, s);
                    Value* len = b.CreateSub(e, s);
                    return b.CreateICmpULT(off, len);
                };
                Value* inData = inRange(dataStart, dataStop);
                Value* inBss = inRange(bssStart, bssStop);
                delta = b.CreateSelect(inData, dd, b.CreateSelect(inBss, bd, ConstantInt::get(I64, 0)), "hmpi.delta.checked");
            }
        }
        Value* raw = b.CreateBitCast(gv, I8P);
        Value* moved = b.CreateGEP(I8, raw, delta, gv->getName() + ".rank");
        Value* result = b.CreateBitCast(moved, gv->getType());
        fs.translated[gv] = result;
        return result;
    }

    // An instruction-level equivalent of constant C with every translated global replaced by the
    // rank's address; new instructions go before `pos`.
    Value* materialize(FunctionState& fs, Constant* c, Instruction* pos) {
        if (auto* gv = dyn_cast<GlobalValue>(c)) return access.count(gv) ? translate(fs, gv) : c;
        if (!mentionsTranslated(c)) return c;
        if (auto* ce = dyn_cast<ConstantExpr>(c)) {
            Instruction* inst = ce->getAsInstruction();
            for (unsigned i = 0; i < inst->getNumOperands(); ++i)
                if (auto* oc = dyn_cast<Constant>(inst->getOperand(i)))
                    inst->setOperand(i, materialize(fs, oc, pos));
            inst->insertBefore(pos);
            return inst;
        }
        if (isa<ConstantAggregate>(c)) {
            IRBuilder<> b(pos);
            Value* agg = UndefValue::get(c->getType());
            bool vector = isa<ConstantVector>(c);
            for (unsigned i = 0; i < c->getNumOperands(); ++i) {
                Value* elem = materialize(fs, cast<Constant>(c->getOperand(i)), pos);
                agg = vector ? b.CreateInsertElement(agg, elem, b.getInt32(i)) : b.CreateInsertValue(agg, elem, i);
            }
            return agg;
        }
        return c;
    }

    void rewriteFunction(Function& f) {
        if (f.isDeclaration() || f.hasFnAttribute(Attribute::Naked)) return;
        // Collect first: the rewriting adds instructions that use the globals too.
        SmallVector<std::pair<Instruction*, unsigned>, 32> uses;
        for (BasicBlock& bb : f)
            for (Instruction& inst : bb)
                for (unsigned i = 0; i < inst.getNumOperands(); ++i)
                    if (auto* c = dyn_cast<Constant>(inst.getOperand(i)); c && !isa<Function>(c) && mentionsTranslated(c))
                        uses.push_back({&inst, i});
        if (uses.empty()) return;
        declareRuntimeSymbols();
        FunctionState fs;
        BasicBlock::iterator ip = f.getEntryBlock().getFirstInsertionPt();
        while (isa<AllocaInst>(*ip)) ++ip;
        fs.entryPos = &*ip;
        // A PHI must get one value per incoming block even if the block is listed twice.
        DenseMap<std::pair<PHINode*, BasicBlock*>, Value*> phiValues;
        for (auto [inst, i] : uses) {
            auto* c = cast<Constant>(inst->getOperand(i));
            if (auto* phi = dyn_cast<PHINode>(inst)) {
                BasicBlock* from = phi->getIncomingBlock(i);
                Value*& v = phiValues[{phi, from}];
                if (!v) v = materialize(fs, c, from->getTerminator());
                phi->setIncomingValue(i, v);
            } else {
                inst->setOperand(i, materialize(fs, c, inst));
            }
        }
    }

    void rewriteFunctions() {
        for (Function& f : M) rewriteFunction(f);
    }

    // ---- marker and section anchors -------------------------------------------------------

    void emitMarkerAndAnchors() {
        Constant* text = ConstantDataArray::getString(Ctx, "hmpi-privatized-1");
        auto* marker = new GlobalVariable(M, text->getType(), true, GlobalValue::InternalLinkage, text,
                                          "__hmpi_priv_marker");
        marker->setSection(kMarkerSection);
        registryEntries.push_back(marker);
        if (isLibrary) {
            // Tells the link check of `hmpicc -shared` that this object reads a library's deltas:
            // a -fPIE object would read the program's and must not go into a shared library.
            auto* pic = new GlobalVariable(M, text->getType(), true, GlobalValue::InternalLinkage, text,
                                           "__hmpi_priv_marker_pic");
            pic->setSection(kMarkerSection);
            registryEntries.push_back(pic);
        }
        // Zero-size anchors: both sections exist in every privatized link unit, so their
        // __start_/__stop_ symbols are always defined.
        for (bool bss : {false, true}) {
            Type* ty = bss ? static_cast<Type*>(ArrayType::get(I8, 0)) : static_cast<Type*>(I8);
            Constant* init = bss ? Constant::getNullValue(ty) : ConstantInt::get(I8, 1);
            auto* anchor = new GlobalVariable(M, ty, false, GlobalValue::InternalLinkage, init,
                                              bss ? "__hmpi_priv_anchor_bss" : "__hmpi_priv_anchor_data");
            anchor->addAttribute("data-section", kDataSection);
            anchor->addAttribute("bss-section", kBssSection);
            registryEntries.push_back(anchor);
        }
        appendToCompilerUsed(M, registryEntries);
    }
};

struct HMPIPrivatizePass : PassInfoMixin<HMPIPrivatizePass> {
    PreservedAnalyses run(Module& m, ModuleAnalysisManager&) {
        return Privatizer(m).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
    static bool isRequired() { return true; }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
    return {LLVM_PLUGIN_API_VERSION, "HMPIPrivatize", "1", [](PassBuilder& pb) {
                pb.registerOptimizerLastEPCallback(
                    [](ModulePassManager& mpm, OptimizationLevel) { mpm.addPass(HMPIPrivatizePass()); });
            }};
}
