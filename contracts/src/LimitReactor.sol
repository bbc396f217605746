// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {FeeController} from "./FeeController.sol";
import {GuardedLegs} from "./GuardedLegs.sol";
import {ISignatureTransfer} from "./interfaces/ISignatureTransfer.sol";
import {Validation} from "./Validation.sol";

/// @title LimitReactor
/// @notice Settles one fill of a limit order atomically. The taker signs once, when placing the order:
/// a Permit2 permit whose witness is the LimitAuth (sell this much for at least `minOut`, paying at
/// most `maxGasFee` of gas fee). Each auction round's winning resolver signs a LimitFill: its output
/// for this order in that round. The keeper submits both with the gas fee it charges; the recipient
/// gets whatever is left of the output after the protocol fee (and the gas fee, when charged in the
/// buy token), which must be at least `minOut`. The types are defined once, in
/// src/chains/evm/limit-typed-data.ts; this contract hashes exactly those (docs/contracts.md).
contract LimitReactor is EIP712, Ownable, GuardedLegs {

    /// @notice What the taker agrees to, signed as the Permit2 witness. The Permit2 nonce identifies
    /// the order; the permit's deadline is `deadline` and its amount is {permitAmount}.
    struct LimitAuth {
        address taker;
        address recipient;
        address sellToken;
        address buyToken;
        uint256 sellAmount;
        uint256 minOut;
        address gasFeeToken;
        uint256 maxGasFee;
        uint256 deadline;
    }

    /// @notice The winning resolver's side of a fill: who it is and what it signed, apart from the order.
    struct Bid {
        address resolver;
        bytes32 quoteId;
        uint256 outputAmount;
        uint256 deadline;
    }

    /// @notice An EIP-2612 approval of Permit2 by the taker, carried along when the taker has none yet.
    struct Erc2612Permit {
        uint256 value;
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    bytes32 public constant LIMIT_AUTH_TYPEHASH = keccak256(
        "LimitAuth(address taker,address recipient,address sellToken,address buyToken,uint256 sellAmount,"
        "uint256 minOut,address gasFeeToken,uint256 maxGasFee,uint256 deadline)"
    );

    string public constant LIMIT_WITNESS_TYPE_STRING =
        "LimitAuth witness)LimitAuth(address taker,address recipient,address sellToken,address buyToken,"
        "uint256 sellAmount,uint256 minOut,address gasFeeToken,uint256 maxGasFee,uint256 deadline)"
        "TokenPermissions(address token,uint256 amount)";

    /// @dev The order is nested whole, so its struct hash in the fill is the taker's witness hash.
    bytes32 public constant LIMIT_FILL_TYPEHASH = keccak256(
        "LimitFill(bytes32 quoteId,LimitAuth order,uint256 nonce,uint256 outputAmount,uint256 deadline)"
        "LimitAuth(address taker,address recipient,address sellToken,address buyToken,uint256 sellAmount,"
        "uint256 minOut,address gasFeeToken,uint256 maxGasFee,uint256 deadline)"
    );

    ISignatureTransfer public immutable PERMIT2;
    Validation public immutable VALIDATION;
    FeeController public immutable FEE_CONTROLLER;

    mapping(address keeper => bool) public keepers;

    /// @dev Field for field the executor's RfqFilled, so the indexer reads both alike.
    /// @param orderHash The EIP-712 digest of the resolver's LimitFill (the indexer's key for the fill).
    /// @param filler The keeper that submitted the fill and was paid the gas fee.
    event LimitFilled(
        bytes32 indexed orderHash,
        bytes32 indexed quoteId,
        address indexed resolver,
        address filler,
        address taker,
        address sellToken,
        uint256 sellAmount,
        address buyToken,
        uint256 outputAmount,
        uint256 received,
        uint256 fee,
        uint256 gasFee
    );
    event KeeperSet(address indexed keeper, bool allowed);

    error NotKeeper(address caller);
    error OrderExpired(uint256 deadline);
    error FillExpired(uint256 deadline);
    error GasFeeTokenNotInPair(address gasFeeToken);
    error GasFeeAboveMax(uint256 gasFee, uint256 maxGasFee);
    /// @param required `minOut` plus the protocol fee, plus the gas fee when it is charged in the buy token.
    error OutputBelowMinOut(uint256 outputAmount, uint256 required);
    error InvalidResolverSignature(address resolver);

    modifier onlyKeeper() {
        if (!keepers[msg.sender]) revert NotKeeper(msg.sender);
        _;
    }

    /// @dev Takes the keeper list so a fresh deployment needs no setup transaction (see docs/contracts.md).
    constructor(
        address initialOwner,
        ISignatureTransfer permit2,
        Validation validation,
        FeeController feeController,
        address[] memory initialKeepers
    ) EIP712("Relay Reactor", "1") Ownable(initialOwner) {
        PERMIT2 = permit2;
        VALIDATION = validation;
        FEE_CONTROLLER = feeController;
        for (uint256 i = 0; i < initialKeepers.length; i++) {
            _setKeeper(initialKeepers[i], true);
        }
    }

    function setKeeper(address keeper, bool allowed) external onlyOwner {
        _setKeeper(keeper, allowed);
    }

    /// @notice Fills `order` (Permit2 nonce `nonce`) with `bid`, charging `gasFee` in the order's gas fee
    /// token. Permit2 spends the nonce, so an order fills at most once.
    function executeLimit(
        LimitAuth calldata order,
        uint256 nonce,
        bytes calldata takerSignature,
        Bid calldata bid,
        bytes calldata resolverSignature,
        uint256 gasFee
    ) external onlyKeeper {
        _execute(order, nonce, takerSignature, bid, resolverSignature, gasFee);
    }

    /// @notice As {executeLimit}, first applying the taker's EIP-2612 approval of Permit2. A permit that
    /// fails (most often because it was already used) is ignored: if the allowance it granted is there,
    /// the fill goes through; if not, Permit2's transfer reverts.
    function executeLimitWithPermit(
        LimitAuth calldata order,
        uint256 nonce,
        bytes calldata takerSignature,
        Bid calldata bid,
        bytes calldata resolverSignature,
        uint256 gasFee,
        Erc2612Permit calldata erc2612
    ) external onlyKeeper {
        try IERC20Permit(order.sellToken).permit(
            order.taker, address(PERMIT2), erc2612.value, erc2612.deadline, erc2612.v, erc2612.r, erc2612.s
        ) {} catch {}
        _execute(order, nonce, takerSignature, bid, resolverSignature, gasFee);
    }

    /// @notice The EIP-712 digest the resolver signs for `bid` on the order; the `orderHash` of {LimitFilled}.
    function fillHash(LimitAuth calldata order, uint256 nonce, Bid calldata bid) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(LIMIT_FILL_TYPEHASH, bid.quoteId, witnessHash(order), nonce, bid.outputAmount, bid.deadline)
            )
        );
    }

    /// @notice What the taker's permit allows: the sell amount, plus the most gas fee it may be charged
    /// when that is in the sell token. A fill pulls only what is due (the gas fee actually charged).
    function permitAmount(LimitAuth calldata order) public pure returns (uint256) {
        return order.sellAmount + (order.gasFeeToken == order.sellToken ? order.maxGasFee : 0);
    }

    /// @notice The EIP-712 struct hash of the order, the witness of the taker's Permit2 signature.
    /// @dev Encoding the struct whole is EIP-712's encodeData because every field is a static 32-byte word.
    function witnessHash(LimitAuth calldata order) public pure returns (bytes32) {
        return keccak256(abi.encode(LIMIT_AUTH_TYPEHASH, order));
    }

    function _execute(
        LimitAuth calldata order,
        uint256 nonce,
        bytes calldata takerSignature,
        Bid calldata bid,
        bytes calldata resolverSignature,
        uint256 gasFee
    ) private {
        if (block.timestamp > order.deadline) revert OrderExpired(order.deadline);
        if (block.timestamp > bid.deadline) revert FillExpired(bid.deadline);
        VALIDATION.validate(order.sellToken, order.buyToken);
        bool gasInSellToken = order.gasFeeToken == order.sellToken;
        if (!gasInSellToken && order.gasFeeToken != order.buyToken) revert GasFeeTokenNotInPair(order.gasFeeToken);
        if (gasFee > order.maxGasFee) revert GasFeeAboveMax(gasFee, order.maxGasFee);

        uint256 fee = FEE_CONTROLLER.feeFor(order.buyToken, bid.outputAmount);
        uint256 required = order.minOut + fee + (gasInSellToken ? 0 : gasFee);
        if (bid.outputAmount < required) revert OutputBelowMinOut(bid.outputAmount, required);
        uint256 received = bid.outputAmount - fee - (gasInSellToken ? 0 : gasFee);

        bytes32 orderHash = fillHash(order, nonce, bid);
        if (!SignatureChecker.isValidSignatureNow(bid.resolver, orderHash, resolverSignature)) {
            revert InvalidResolverSignature(bid.resolver);
        }

        // Permit2 checks the taker's signature over this order and spends the order's nonce; it
        // transfers only what is due, never more than the permit allows. Each party's transfer is
        // guarded, so a failure names its leg with the token's own revert data (GuardedLegs).
        try PERMIT2.permitWitnessTransferFrom(
            ISignatureTransfer.PermitTransferFrom({
                permitted: ISignatureTransfer.TokenPermissions({token: order.sellToken, amount: permitAmount(order)}),
                nonce: nonce,
                deadline: order.deadline
            }),
            ISignatureTransfer.SignatureTransferDetails({
                to: address(this),
                requestedAmount: order.sellAmount + (gasInSellToken ? gasFee : 0)
            }),
            order.taker,
            witnessHash(order),
            LIMIT_WITNESS_TYPE_STRING,
            takerSignature
        ) {}
        catch (bytes memory reason) {
            revert TakerLegFailed(reason);
        }
        _legTransfer(Leg.Resolver, order.sellToken, bid.resolver, order.sellAmount);
        // The resolver's whole output comes here first, so a transfer that fails after it is the recipient's
        // or a fee's, never the resolver's (docs/reliability.md, "Blame").
        _pull(order.buyToken, bid.resolver, received + fee + (gasInSellToken ? 0 : gasFee));
        _send(Leg.Recipient, order.buyToken, order.recipient, received);
        _send(Leg.Fee, order.buyToken, address(FEE_CONTROLLER), fee);
        _send(Leg.Fee, gasInSellToken ? order.sellToken : order.buyToken, msg.sender, gasFee);

        emit LimitFilled(
            orderHash,
            bid.quoteId,
            bid.resolver,
            msg.sender,
            order.taker,
            order.sellToken,
            order.sellAmount,
            order.buyToken,
            bid.outputAmount,
            received,
            fee,
            gasFee
        );
    }

    /// @dev From the resolver, who approves this contract once; zero amounts are skipped.
    function _pull(address token, address resolver, uint256 amount) private {
        if (amount > 0) _legTransferFrom(Leg.Resolver, token, resolver, address(this), amount);
    }

    /// @dev From this contract; zero amounts are skipped.
    function _send(Leg leg, address token, address to, uint256 amount) private {
        if (amount > 0) _legTransfer(leg, token, to, amount);
    }

    function _setKeeper(address keeper, bool allowed) private {
        keepers[keeper] = allowed;
        emit KeeperSet(keeper, allowed);
    }
}
