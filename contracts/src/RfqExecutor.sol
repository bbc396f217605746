// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {FeeController} from "./FeeController.sol";
import {GuardedLegs} from "./GuardedLegs.sol";
import {ISignatureTransfer} from "./interfaces/ISignatureTransfer.sol";
import {RfqLegs} from "./RfqLegs.sol";
import {Validation} from "./Validation.sol";

/// @title RfqExecutor
/// @notice Settles one RFQ swap atomically from 1 to MAX_LEGS resolvers' legs (RfqLegs): the taker's sell
/// tokens to the resolvers, each its part, their buy tokens to the recipient, the fees to the fee controller
/// and the keeper, or nothing at all. The taker's Permit2 permit authorises it, whose witness is the RfqOrder
/// (what the taker gives and gets at least, not who pays it), and each leg's RfqFill (what its resolver
/// takes and gives). The recipient gets the whole of what the legs deliver after the fees, at least
/// `minReceived`. The types are defined once, in src/chains/evm/typed-data.ts (docs/contracts.md).
contract RfqExecutor is EIP712, Ownable, GuardedLegs, RfqLegs {
    /// @notice What the taker agrees to, signed as the Permit2 witness. The sell side is in the permit;
    /// the resolver is not named, so the keeper may fill it with any resolver's bid that pays enough.
    struct RfqOrder {
        bytes32 quoteId;
        address recipient;
        address buyToken;
        uint256 minReceived;
        address gasFeeToken;
        uint256 gasFee;
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

    bytes32 public constant RFQ_ORDER_TYPEHASH = keccak256(
        "RfqOrder(bytes32 quoteId,address recipient,address buyToken,uint256 minReceived,address gasFeeToken,"
        "uint256 gasFee,uint256 deadline)"
    );

    string public constant RFQ_WITNESS_TYPE_STRING =
        "RfqOrder witness)RfqOrder(bytes32 quoteId,address recipient,address buyToken,uint256 minReceived,"
        "address gasFeeToken,uint256 gasFee,uint256 deadline)"
        "TokenPermissions(address token,uint256 amount)";

    bytes32 public constant RFQ_FILL_TYPEHASH = keccak256(
        "RfqFill(bytes32 quoteId,address taker,address sellToken,uint256 sellAmount,address buyToken,"
        "uint256 outputAmount,uint256 deadline)"
    );

    ISignatureTransfer public immutable PERMIT2;
    Validation public immutable VALIDATION;
    FeeController public immutable FEE_CONTROLLER;

    mapping(address keeper => bool) public keepers;

    /// @notice One per leg, in the legs' order; each amount summed over a fill's events is the swap's
    /// (docs/contracts.md, "Events").
    /// @param orderHash The EIP-712 digest of the leg's RfqFill (the indexer's key for the fill).
    /// @param filler The keeper that submitted the fill and was paid the gas fee.
    /// @param received The recipient's share from this leg: its output less its fee and less the part of a
    /// buy-token gas fee taken from it (from the legs in order). `gasFee` is the swap's on the first leg, else 0.
    event RfqFilled(
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
    error NonceMismatch(uint256 expected, uint256 actual);
    error GasFeeTokenNotInPair(address gasFeeToken);
    error GasFeeExceedsTakerPays(uint256 gasFee, uint256 takerPays);
    /// @param received What the legs pay the recipient after their fees (and the gas fee in the buy token).
    error ReceivedBelowMinimum(uint256 received, uint256 minReceived);
    /// @notice `resolver`'s signature does not sign its leg's RfqFill.
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
    ) EIP712("Relay Executor", "1") Ownable(initialOwner) {
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

    /// @notice Settles the order from `bids`, its legs. `permit` is the Permit2 message exactly as the taker
    /// signed it: permitted = (sell token, takerPays), nonce = the quote's nonce, and its deadline.
    function fill(
        RfqOrder calldata order,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address taker,
        bytes calldata takerSignature,
        Bid[] calldata bids
    ) external onlyKeeper {
        _fill(order, permit, taker, takerSignature, bids);
    }

    /// @notice As {fill}, first applying the taker's EIP-2612 approval of Permit2. A permit that fails
    /// (most often because it was already used, by a front-runner or an earlier attempt) is ignored: if
    /// the allowance it granted is there, the fill goes through; if not, Permit2's transfer reverts.
    function fillWithPermit(
        RfqOrder calldata order,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address taker,
        bytes calldata takerSignature,
        Bid[] calldata bids,
        Erc2612Permit calldata erc2612
    ) external onlyKeeper {
        try IERC20Permit(permit.permitted.token).permit(
            taker, address(PERMIT2), erc2612.value, erc2612.deadline, erc2612.v, erc2612.r, erc2612.s
        ) {} catch {}
        _fill(order, permit, taker, takerSignature, bids);
    }

    /// @notice The EIP-712 digest a resolver signs to deliver `outputAmount` for `sellAmount` of `order`'s
    /// swap (the whole, or its leg's part); the `orderHash` of {RfqFilled}.
    function fillHash(
        RfqOrder calldata order,
        address taker,
        address sellToken,
        uint256 sellAmount,
        uint256 outputAmount
    ) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    RFQ_FILL_TYPEHASH,
                    order.quoteId,
                    taker,
                    sellToken,
                    sellAmount,
                    order.buyToken,
                    outputAmount,
                    order.deadline
                )
            )
        );
    }

    /// @notice The EIP-712 struct hash of the order, the witness of the taker's Permit2 signature.
    /// @dev Encoding the struct whole is EIP-712's encodeData because every field is a static 32-byte word.
    function witnessHash(RfqOrder calldata order) public pure returns (bytes32) {
        return keccak256(abi.encode(RFQ_ORDER_TYPEHASH, order));
    }

    function _fill(
        RfqOrder calldata order,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address taker,
        bytes calldata takerSignature,
        Bid[] calldata bids
    ) private {
        if (block.timestamp > order.deadline) revert OrderExpired(order.deadline);
        // The quote id's first 16 bytes are its Permit2 nonce, so each quote settles at most once.
        uint256 nonce = uint256(order.quoteId) >> 128;
        if (permit.nonce != nonce) revert NonceMismatch(nonce, permit.nonce);

        address sellToken = permit.permitted.token;
        uint256 takerPays = permit.permitted.amount;
        VALIDATION.validate(sellToken, order.buyToken);
        bool gasInSellToken = order.gasFeeToken == sellToken;
        if (!gasInSellToken && order.gasFeeToken != order.buyToken) revert GasFeeTokenNotInPair(order.gasFeeToken);
        if (gasInSellToken && order.gasFee > takerPays) revert GasFeeExceedsTakerPays(order.gasFee, takerPays);
        uint256 sellAmount = gasInSellToken ? takerPays - order.gasFee : takerPays;

        (bytes32[] memory orderHashes, uint256[] memory fees, uint256 net) =
            _checkLegs(order, taker, sellToken, sellAmount, bids);
        uint256 gasFromOutput = gasInSellToken ? 0 : order.gasFee;
        uint256 received = net > gasFromOutput ? net - gasFromOutput : 0;
        if (received < order.minReceived) revert ReceivedBelowMinimum(received, order.minReceived);

        // Permit2 checks the taker's signature over this order and spends the quote's nonce. Each transfer is
        // guarded: a failure names its leg (a resolver's, its resolver) with the token's revert data (GuardedLegs).
        try PERMIT2.permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: takerPays}),
            taker,
            witnessHash(order),
            RFQ_WITNESS_TYPE_STRING,
            takerSignature
        ) {}
        catch (bytes memory reason) {
            revert TakerLegFailed(reason);
        }
        uint256 fee;
        for (uint256 i = 0; i < bids.length; i++) {
            _legTransfer(Leg.Resolver, sellToken, bids[i].resolver, bids[i].sellAmount);
            // Each resolver's whole output comes here first, so a transfer that fails after them all is the
            // recipient's or a fee's, never a resolver's (docs/reliability.md, "Blame").
            _legTransferFrom(Leg.Resolver, order.buyToken, bids[i].resolver, address(this), bids[i].outputAmount);
            fee += fees[i];
        }
        _send(Leg.Recipient, order.buyToken, order.recipient, received);
        _send(Leg.Fee, order.buyToken, address(FEE_CONTROLLER), fee);
        _send(Leg.Fee, gasInSellToken ? sellToken : order.buyToken, msg.sender, order.gasFee);
        _emitFills(order, taker, sellToken, bids, orderHashes, fees, gasFromOutput);
    }

    /// @dev Refuses legs out of shape (RfqLegs) or not each signed by its resolver. Returns each leg's RfqFill
    /// digest and protocol fee (its own, rounded down: docs/legs.md's fee_i) and the legs' output less fees.
    function _checkLegs(
        RfqOrder calldata order,
        address taker,
        address sellToken,
        uint256 sellAmount,
        Bid[] calldata bids
    ) private view returns (bytes32[] memory orderHashes, uint256[] memory fees, uint256 net) {
        _checkLegShape(bids, sellAmount);
        orderHashes = new bytes32[](bids.length);
        fees = new uint256[](bids.length);
        for (uint256 i = 0; i < bids.length; i++) {
            Bid calldata bid = bids[i];
            orderHashes[i] = fillHash(order, taker, sellToken, bid.sellAmount, bid.outputAmount);
            if (!SignatureChecker.isValidSignatureNow(bid.resolver, orderHashes[i], bid.signature)) {
                revert InvalidResolverSignature(bid.resolver);
            }
            fees[i] = FEE_CONTROLLER.feeFor(order.buyToken, bid.outputAmount);
            net += bid.outputAmount - fees[i];
        }
    }

    /// @dev One {RfqFilled} per leg. The gas fee charged in the buy token comes out of the legs' shares in
    /// order, so the events' `received` sum to what the recipient got; the first leg carries the gas fee.
    function _emitFills(
        RfqOrder calldata order,
        address taker,
        address sellToken,
        Bid[] calldata bids,
        bytes32[] memory orderHashes,
        uint256[] memory fees,
        uint256 gasFromOutput
    ) private {
        uint256 gasLeft = gasFromOutput;
        for (uint256 i = 0; i < bids.length; i++) {
            uint256 share = bids[i].outputAmount - fees[i];
            uint256 gasTaken = gasLeft < share ? gasLeft : share;
            gasLeft -= gasTaken;
            emit RfqFilled(
                orderHashes[i],
                order.quoteId,
                bids[i].resolver,
                msg.sender,
                taker,
                sellToken,
                bids[i].sellAmount,
                order.buyToken,
                bids[i].outputAmount,
                share - gasTaken,
                fees[i],
                i == 0 ? order.gasFee : 0
            );
        }
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
